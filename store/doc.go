// Package store holds the bcindex store inside the git dir: a Badger
// database of blob records and vectors, plus immutable, memory-mapped
// segments that queries scan, the manifest naming the live segments, the
// indexing lock and the schema version.
//
// Readers never open Badger: a search opens the segment manifest, which is
// written atomically (temp file and rename), so a search never waits for,
// or sees half of, an indexing run. See schema.go for the layout on disk.
// Everything here is derived from git and can be rebuilt from it.
package store
