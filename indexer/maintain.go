package indexer

import (
	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/indexing"
	"github.com/bcindex/bcindex/store"
	"github.com/bcindex/bcindex/store/storewrite"
)

// What package gc collects garbage through: the indexer's repository and
// options, and its merging of segments.

// Repo is the repository the indexer indexes.
func (ix *Indexer) Repo() *gitindex.Repo { return ix.repo }

// Options are the indexer's options, defaults filled in.
func (ix *Indexer) Options() Options { return ix.opts }

// RewriteSegments writes each part as a new segment, one after the other,
// keeping the vector files keepModel accepts (nil: all), then publishes one
// manifest without the segments drop and with the new ones. The caller
// holds the lock.
func (ix *Indexer) RewriteSegments(st *storewrite.Store, m *store.Manifest, drop []string, parts []Part, keepModel func(string) bool) error {
	return ix.rewriteSegments(st, m, drop, parts, keepModel)
}

// MergeRows is the most rows one merge writes (Options.MergeRows or the
// default); a segment of half as many rows or more is full.
func (ix *Indexer) MergeRows() int { return ix.mergeRows() }

// RemoveOrphans removes the segment directories m does not name (what a
// killed run left). The caller holds the lock.
func (ix *Indexer) RemoveOrphans(m *store.Manifest) { ix.removeOrphans(m) }

// DirSize is the disk space used under dir: allocated blocks.
func DirSize(dir string) int64 { return indexing.DirSize(dir) }
