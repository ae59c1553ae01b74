package mcp

import (
	"context"
	"errors"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/bcindex/bcindex/indexing"
	"github.com/bcindex/bcindex/store"
)

// ensure brings the index up to date for what a tool call reads
// (Options.Ensure), waiting LockWait for a running indexer, with progress
// reported to a client that asked for it.
func (s *Server) ensure(ctx context.Context, req *sdk.CallToolRequest, rev string, r indexing.Request) (*store.View, *indexing.Summary, error) {
	if s.opts.Ensure == nil {
		return nil, nil, errors.New("bring the index up to date: this server has no indexer (Options.Ensure)")
	}
	r.LockWait = s.opts.LockWait
	if tok := req.Params.GetProgressToken(); tok != nil && req.Session != nil {
		r.Progress = &progress{ctx: ctx, ss: req.Session, token: tok, rev: rev}
	}
	return s.opts.Ensure(ctx, s.repo, r)
}
