// Package storewrite is the write half of the store (package store is the
// read half): the Badger database opened for writing and its batches of
// blob records and vectors' parts, the manifest written, the index lock,
// the value log's rewriting, the summary index written and pruned, a
// damaged database set aside and the store checked and repaired. Only the
// writers import it (the indexer, gc, share, enhance, the commands); a
// query reads through store's views and snapshots and cannot reach it.
package storewrite
