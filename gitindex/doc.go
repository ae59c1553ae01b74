// Package gitindex reads repositories through go-git and maintains the
// bcindex store: a Badger database of blob records and vectors, plus
// immutable, memory-mapped segments that queries scan.
//
// Everything is keyed by content. A blob is chunked once, whatever commit,
// branch or tag contains it; a vector is computed once per (model, chunk
// content hash). Indexing a revision resolves it to a tree, lists the tree
// (cached by tree SHA), and processes only the blobs no segment holds yet.
//
// Readers never open Badger: a search opens the segment manifest and the
// tree-listing cache, both of which are written atomically (temp file and
// rename), so a search never waits for, or sees half of, an indexing run.
// See schema.go for the layout on disk.
package gitindex
