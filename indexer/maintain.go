package indexer

import (
	"github.com/go-git/go-git/v5/plumbing"

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

// MergeSegments rewrites the segments ids as one, keeping the blobs keep
// accepts (nil: all) and the vector files keepModel accepts (nil: all),
// and publishes a manifest without them. The caller holds the lock.
func (ix *Indexer) MergeSegments(st *storewrite.Store, m *store.Manifest, ids []string, keep func(plumbing.Hash) bool, keepModel func(string) bool) error {
	return ix.mergeSegments(st, m, ids, keep, keepModel)
}

// RemoveOrphans removes the segment directories m does not name (what a
// killed run left). The caller holds the lock.
func (ix *Indexer) RemoveOrphans(m *store.Manifest) { ix.removeOrphans(m) }

// DirSize is the disk space used under dir: allocated blocks.
func DirSize(dir string) int64 { return indexing.DirSize(dir) }
