package web

import (
	"context"
	"errors"
	"time"

	"github.com/bcindex/bcindex/indexing"
	"github.com/bcindex/bcindex/store"
)

// pageLockWait is how long a page waits for a running indexer before it
// serves what is indexed.
const pageLockWait = 30 * time.Second

// ensure brings the index up to date for what a page reads
// (Options.Ensure), waiting pageLockWait for a running indexer.
func (s *Server) ensure(ctx context.Context, r indexing.Request) (*store.View, *indexing.Summary, error) {
	if s.opts.Ensure == nil {
		return nil, nil, errors.New("bring the index up to date: this server has no indexer (Options.Ensure)")
	}
	r.LockWait = pageLockWait
	return s.opts.Ensure(ctx, s.repo, r)
}
