// Package store is the read half of the bcindex store inside the git dir:
// a Badger database of blob records and vectors, plus immutable,
// memory-mapped segments that queries scan, the manifest naming the live
// segments and the schema version. It opens snapshots of the live
// segments and read-only views of the wanted revisions, reads the summary
// index and checks Badger's files; it exports no write. Everything that
// writes the store (Badger opened for writing, the manifest, the lock, the
// value log's rewriting, the summary index) is in store/storewrite, which
// no package answering a query depends on.
//
// Readers never open Badger: a search opens the segment manifest, which is
// written atomically (temp file and rename), so a search never waits for,
// or sees half of, an indexing run. See schema.go for the layout on disk.
// Everything here is derived from git and can be rebuilt from it.
package store
