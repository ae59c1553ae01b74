// Package vocab is what the readers of an index share with the chunker,
// without the chunker's parsers (and so without cgo): the kinds a chunk
// can have (KindFile, KindFunction...; Kinds), the languages a file can be
// in and how a path and a shebang line name them (DetectLanguage,
// Languages, Interpreter), and the text a chunk is indexed by (IndexText).
//
// IndexText reads Spans: the chunker's files (chunk.File) and a blob's
// rows in a segment (segment.BlobSpans) both are, so the indexer and a
// reader that needs a chunk's indexed text (similar, the cluster) compute
// the same string, the reader without parsing the blob again.
package vocab
