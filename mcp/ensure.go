package mcp

import (
	"context"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/bcindex/bcindex/indexer"
	"github.com/bcindex/bcindex/store"
)

// ensure is a tool's one call before it reads the index: with no_index it
// opens what is there, otherwise it indexes what parts need first
// (indexer.Ensure), reporting progress to a client that asked for it.
func (s *Server) ensure(ctx context.Context, req *sdk.CallToolRequest, rev string, want store.Want, parts indexer.Parts, noIndex bool) (*store.View, *indexer.Summary, error) {
	opts := indexer.Options{MaxFileSize: s.opts.MaxFileSize}
	if parts == indexer.All {
		opts.Embedder = s.opts.Embedder
	}
	if tok := req.Params.GetProgressToken(); tok != nil && req.Session != nil {
		opts.Progress = &progress{ctx: ctx, ss: req.Session, token: tok, rev: rev}
	}
	if noIndex {
		parts = indexer.None
	}
	return indexer.NewIndexer(s.repo, opts).Ensure(ctx, want, parts, s.opts.LockWait)
}
