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
// (Options.Ensure), waiting pageLockWait for a running indexer. The view
// is the server's kept one while the index and the revisions are
// unchanged (indexing.Keeper); the caller calls done when it has read it.
func (s *Server) ensure(ctx context.Context, r indexing.Request) (v *store.View, sum *indexing.Summary, done func(), err error) {
	if s.opts.Ensure == nil {
		return nil, nil, nil, errors.New("bring the index up to date: this server has no indexer (Options.Ensure)")
	}
	r.LockWait = pageLockWait
	return s.views.View(ctx, s.repo, r)
}
