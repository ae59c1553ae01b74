// Package indexer turns revisions into index entries: it takes the blobs a
// revision's tree lists (from gitindex), chunks the ones no segment holds
// yet, embeds the chunks whose vectors are not stored yet (for a remote
// provider, in requests filled with the chunks of many blobs), and writes blob
// records, vectors and a new segment (to store). It also merges
// segments and reports index status; package gc collects garbage, package
// share moves an index through git refs.
//
// Everything is keyed by content. A blob is chunked once, whatever commit,
// branch or tag contains it; a vector is computed once per (model, chunk
// content hash).
package indexer
