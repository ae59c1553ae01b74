// Package cluster publishes a repository's index to a Weaviate cluster and
// searches every published repository at once.
//
// The cluster holds three collections (doc/cluster.md has the full design):
//
//   - BcindexChunk: one object per (model ID, chunk content hash), with a
//     UUID derived from both, holding the chunk's indexed text, its
//     code-aware tokens (for BM25), name, kind, language, doc, signature and
//     the vector bcindex computed. A chunk shared by fifty forks is one object.
//   - BcindexFile: one object per (repository, ref, path, blob) saying which
//     chunks occur in that file and where, visible from generation From up
//     to (not including) generation Until of its ref.
//   - BcindexRef: one object per (repository, ref) naming the published
//     commit and its generation. Readers see a file only when the ref's
//     generation is in [From, Until), so switching this one object publishes
//     a whole commit at once.
//
// The package reads the local index only through Source (see local.go for
// the implementation over gitindex).
package cluster
