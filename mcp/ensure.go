package mcp

import (
	"context"
	"errors"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/indexing"
	"github.com/bcindex/bcindex/store"
)

// ensure brings the index up to date for what a tool call reads
// (Options.Ensure), waiting LockWait for a running indexer, with progress
// reported to a client that asked for it. The view is the server's kept
// one while the index and the revisions are unchanged (indexing.Keeper);
// the caller calls done when it has read it.
func (s *Server) ensure(ctx context.Context, req *sdk.CallToolRequest, rev string, r indexing.Request) (v *store.View, sum *indexing.Summary, done func(), err error) {
	if s.opts.Ensure == nil {
		return nil, nil, nil, errors.New("bring the index up to date: this server has no indexer (Options.Ensure)")
	}
	r.LockWait = s.opts.LockWait
	if tok := req.Params.GetProgressToken(); tok != nil && req.Session != nil {
		r.Progress = &progress{ctx: ctx, ss: req.Session, token: tok, rev: rev}
	}
	return s.views.View(ctx, s.repo, r)
}

// indexed returns the index as it is at c, indexing nothing, for the tools
// that read what is indexed and serve the rest from git (the chunk tools,
// history): the server's kept view of what is indexed (Parts None, as
// no_index reads), or without an indexer the snapshot opened for this
// call. The snapshot is nil when there is no index or it cannot be read;
// the caller calls done when it is not.
func (s *Server) indexed(ctx context.Context, req *sdk.CallToolRequest, c gitindex.Commit) (snap *store.Snapshot, done func()) {
	if s.opts.Ensure == nil {
		snap, err := store.OpenSnapshot(s.repo.IndexDir, "")
		if err != nil {
			return nil, nil
		}
		return snap, snap.Close
	}
	v, _, done, err := s.ensure(ctx, req, c.Rev, indexing.Request{Want: store.Want{Commits: []gitindex.Commit{c}}, Parts: indexing.None, NoIndex: true})
	if err != nil {
		return nil, nil
	}
	return v.Snap, done
}
