package mcp

import (
	"context"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/bcindex/bcindex/indexer"
)

// indexOptions are the indexer's options of a tool call (indexer.Ensure):
// the embedder, used where the tool reads vectors, and progress reported
// to a client that asked for it.
func (s *Server) indexOptions(ctx context.Context, req *sdk.CallToolRequest, rev string) indexer.Options {
	opts := indexer.Options{MaxFileSize: s.opts.MaxFileSize, Embedder: s.opts.Embedder}
	if tok := req.Params.GetProgressToken(); tok != nil && req.Session != nil {
		opts.Progress = &progress{ctx: ctx, ss: req.Session, token: tok, rev: rev}
	}
	return opts
}
