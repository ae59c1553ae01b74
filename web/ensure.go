package web

import (
	"context"
	"time"

	"github.com/bcindex/bcindex/indexer"
	"github.com/bcindex/bcindex/store"
)

// ensure is a page's one call before it reads the index: it indexes what
// parts need first (indexer.Ensure), waiting for a running indexer at most
// half a minute, then opens the index read-only.
func (s *Server) ensure(ctx context.Context, want store.Want, parts indexer.Parts) (*store.View, error) {
	opts := s.opts.Index
	if parts == indexer.All {
		opts.Embedder = s.opts.Embedder
	}
	v, _, err := indexer.NewIndexer(s.repo, opts).Ensure(ctx, want, parts, 30*time.Second)
	return v, err
}
