package indexer

import (
	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/indexing"
)

// Status describes how far the index covers one revision
// (indexing.Status).
type Status = indexing.Status

// StatusOf reports the index's coverage of rev (indexing.StatusOf).
func StatusOf(r *gitindex.Repo, rev, model string) (*Status, error) {
	return indexing.StatusOf(r, rev, model)
}
