package mcp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/indexing"
)

// Options configure a Server.
type Options struct {
	// Embedder computes query vectors and vectors of newly indexed chunks;
	// nil turns the vector arm off (git config bcindex.vectors=false).
	Embedder embed.Embedder
	// Ensure brings the index up to date before a tool reads it (the
	// command passes indexer.Ensurer with its indexing options: the
	// embedder, the largest blob indexed); nil: the tools that read the
	// index answer with an error.
	Ensure indexing.Ensure
	// Split chunks a blob the index does not hold, as the indexer would
	// (the command passes chunk.Split's chunks), for the chunk tools;
	// nil: such a blob shows as its file chunk alone.
	Split func(path string, content []byte) (language string, chunks []Chunk)
	// LockWait is how long a search waits for a running indexer; 0: 2 minutes.
	LockWait time.Duration
	// Version is reported to clients in the initialize handshake.
	Version string
	// Remote searches the Weaviate cluster bcindex publishes to; when set,
	// the search_remote tool searches every repository published there.
	Remote RemoteSearcher
	// Log receives internal errors (with stacks); nil: discarded. Never
	// stdout, which carries the protocol.
	Log io.Writer
}

// Server answers MCP tool calls about one repository.
type Server struct {
	// mu serialises tool calls: a go-git repository is not safe for
	// concurrent use, and gitindex.Repo reopens it after a repack.
	mu   sync.Mutex
	repo *gitindex.Repo
	opts Options
	sdk  *sdk.Server
	// views keeps the index open across tool calls (ensure), closed by
	// Close.
	views indexing.Keeper
}

// instructions tell the agent how the tools fit together.
const instructions = `bcindex searches and reads this git repository straight from its object database, at any revision (rev: branch, tag, SHA, HEAD~3; default HEAD), without a checkout.
Typical flow: search (ten files, a line each at the best chunk, code under the first two, then ninety further files by path and lines) → read_file (a hit's lines, from its header) or get_chunk (by the chunk_id of the structured result) → file_chunks (outline of a file) → list_directory to explore.
For every occurrence of an exact string or regex (an error message, each call site of a function, a config key), use grep: it is complete, search is ranked.
Paths are relative to the repository root, with forward slashes. Every answer is capped; a truncated answer says how to get the rest.`

// NewServer builds the MCP server for repo with every bcindex tool registered.
func NewServer(repo *gitindex.Repo, opts Options) *Server {
	if opts.LockWait <= 0 {
		opts.LockWait = 2 * time.Minute
	}
	if opts.Version == "" {
		opts.Version = "dev"
	}
	s := &Server{repo: repo, opts: opts}
	s.views.Ensure = opts.Ensure
	s.sdk = sdk.NewServer(&sdk.Implementation{Name: "bcindex", Title: "bcindex code search", Version: opts.Version},
		&sdk.ServerOptions{Instructions: instructions})
	s.register()
	return s
}

// Close closes the views of the index the server kept open across tool
// calls. Serve closes them when its client is gone; a caller that
// connects the SDK server to a transport itself calls Close when done.
func (s *Server) Close() { s.views.Close() }

// SDK returns the underlying SDK server, to connect it to any transport.
func (s *Server) SDK() *sdk.Server { return s.sdk }

// Run serves one client over stdin/stdout until it disconnects or ctx ends.
func (s *Server) Run(ctx context.Context) error {
	return s.Serve(ctx, os.Stdin, os.Stdout)
}

// Serve serves one client reading in and writing out (newline-delimited
// JSON-RPC) until the input ends or ctx does. A line that holds no request
// gets an error reply and the server reads on; every request read before
// the input ended is answered first (stdio.go).
func (s *Server) Serve(ctx context.Context, in io.ReadCloser, out io.Writer) error {
	t := &lineTransport{in: in, out: out}
	defer s.Close()
	err := s.sdk.Run(ctx, t)
	if t.conn != nil && t.conn.writeErr() != nil {
		err = t.conn.writeErr() // the client closed its end: say so, whatever the SDK saw
	}
	if err != nil && !errors.Is(err, context.Canceled) {
		return fmt.Errorf("serve mcp over stdio: %w", err)
	}
	return err
}

func (s *Server) register() {
	addTool(s, "search", "Search code at a revision by symbol, keyword and meaning (hybrid by default). "+
		"Returns ranked chunks (functions, classes, sections...): by default 10 files, each a line at its best chunk (path, lines, breadcrumb, kind, the lines of its other chunks), the first two with their first lines of code, "+
		"then a tail of 20 further files, a line each (path:lines; more=N sets how many), filled from the text and vector arms alone when the hybrid ranks fewer; "+
		"verbose=true gives numbered code, scores and chunk_ids for get_chunk (also in the structured result). "+
		"A revision that is not indexed yet is indexed first (missing blobs only).", s.search)
	addTool(s, "grep", "Every line matching a regular expression (RE2) or, with fixed=true, a fixed string, like git grep: "+
		"complete, not ranked, in path order, from the index. ignore_case, word, a path glob ('!glob' excludes), several revisions at once. "+
		"Returns path, line number, text and the revisions holding each line; page with offset=next_offset.", s.grep)
	addTool(s, "get_chunk", "Full text of a chunk by its chunk_id (from search or file_chunks), "+
		"with its parent chunk (signature; text too for micro chunks) and the names of its siblings and children.", s.getChunk)
	addTool(s, "file_chunks", "Outline of one file at a revision: its chunks in order (kind, name, lines, signature, chunk_id).", s.fileChunks)
	addTool(s, "read_file", "Read a file at a revision, with line numbers (cat -n style). "+
		"Use start_line/end_line for a range; long answers are truncated with a note saying where to continue.", s.readFile)
	addTool(s, "list_directory", "List a directory of the tree at a revision: files with sizes and languages, subdirectories with file counts. "+
		"recursive/depth descend into subdirectories; offset/limit page through long listings.", s.listDirectory)
	if s.opts.Remote != nil {
		addTool(s, "search_remote", "Search every repository published to the organisation's cluster at once (hybrid: keywords and meaning). "+
			"Filters: repo glob, ref, path glob, lang, kind. Hits carry their repository; read them with the repository's own tools.", s.searchRemote)
	}
	addTool(s, "history", "When did a string appear, change or go: the first-parent commits where a file's number of occurrences changed "+
		"(git log -S; lines=true for git log -G), newest first, with the matching lines each added or removed. "+
		"Exact, and needs no index. oldest=true with max_commits=1 finds the commit that introduced it.", s.history)
	addTool(s, "index_status", "How far the bcindex index covers a revision: files, blobs, chunks, pending blobs, model, store size.", s.indexStatus)
}

// addTool registers a read-only tool whose handler never takes the server
// down: a panic becomes a tool error the agent can read.
func addTool[In, Out any](s *Server, name, desc string, h sdk.ToolHandlerFor[In, Out]) {
	f := false
	tool := &sdk.Tool{Name: name, Description: desc,
		Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: &f}}
	sdk.AddTool(s.sdk, tool, func(ctx context.Context, req *sdk.CallToolRequest, in In) (res *sdk.CallToolResult, out Out, err error) {
		defer func() {
			if p := recover(); p != nil {
				var zero Out
				res, out = nil, zero
				if s.opts.Log != nil {
					fmt.Fprintf(s.opts.Log, "bcindex mcp: panic in %s: %v\n%s", name, p, debug.Stack())
				}
				err = fmt.Errorf("internal error in %s (please report it): %v", name, p)
			}
		}()
		s.mu.Lock()
		defer s.mu.Unlock()
		return h(ctx, req, in)
	})
}

// text wraps a text answer as the tool's unstructured content.
func text(s string) *sdk.CallToolResult {
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: s}}}
}

// model is the embedder ID the index is read with; "" when vectors are off.
func (s *Server) model() string {
	if s.opts.Embedder == nil {
		return ""
	}
	return s.opts.Embedder.ID()
}
