package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/indexing"
	"github.com/bcindex/bcindex/query"
	"github.com/bcindex/bcindex/search"
	"github.com/bcindex/bcindex/store"
)

type searchIn struct {
	Query    string `json:"query" jsonschema:"what to look for: a symbol name, keywords, or a description in plain words"`
	Rev      string `json:"rev,omitempty" jsonschema:"revision: branch, tag, SHA, HEAD~3...; default HEAD"`
	K        int    `json:"k,omitempty" jsonschema:"number of hits: files, each at its best chunk; default 10 (with verbose: chunks, default 10); ceiling 100"`
	Offset   int    `json:"offset,omitempty" jsonschema:"hits to skip (files; with verbose, chunks), to page past earlier ones; offset+k at most 1000"`
	Mode     string `json:"mode,omitempty" jsonschema:"hybrid (default), symbol, text or vector"`
	Path     string `json:"path,omitempty" jsonschema:"only files matching this glob, e.g. pkg/**/*.go or *.py"`
	Lang     string `json:"lang,omitempty" jsonschema:"only chunks in this language: go, python, typescript, markdown..."`
	Kind     string `json:"kind,omitempty" jsonschema:"only chunks of this kind: function, method, class, type, section..."`
	Context  *int   `json:"context,omitempty" jsonschema:"with verbose: lines of context around each snippet; default 2, ceiling 20"`
	MaxLines int    `json:"max_lines,omitempty" jsonschema:"lines of code of each hit shown with code; default 4 (12 with verbose), ceiling 400 (read_file or get_chunk give the whole chunk)"`
	Snippets *int   `json:"snippets,omitempty" jsonschema:"hits shown with code; the others are a line each; default 2"`
	More     *int   `json:"more,omitempty" jsonschema:"further files listed after the k hits, from the same ranking, a line each (path:lines of the file's best chunk); default 90, ceiling 300; not with verbose"`
	Verbose  bool   `json:"verbose,omitempty" jsonschema:"every hit with numbered code and context, its score and chunk ID in the text; default false"`
	MaxBytes int    `json:"max_bytes,omitempty" jsonschema:"byte budget of the whole answer; default 24000, ceiling 200000"`
	NoIndex  bool   `json:"no_index,omitempty" jsonschema:"do not index missing blobs first; search what is indexed"`
	Files    bool   `json:"files,omitempty" jsonschema:"rank files instead of chunks: k files, each with its best chunks and their lines (the first with its snippet)"`
	// NoSummaries is the CLI's --no-summaries.
	NoSummaries bool `json:"no_summaries,omitempty" jsonschema:"rank and answer without the summaries a chat model wrote (git bcindex enhance), to compare"`

	Revs        []string `json:"revs,omitempty" jsonschema:"several revisions at once, with rev: names or globs over ref names (refs/heads/*, release/*, v1.*); each hit names the revisions holding it"`
	AllBranches bool     `json:"all_branches,omitempty" jsonschema:"search every local and remote-tracking branch"`
	Tags        bool     `json:"tags,omitempty" jsonschema:"search every tag"`
	AllRefs     bool     `json:"all_refs,omitempty" jsonschema:"search every ref"`
}

type hitOut struct {
	Path       string   `json:"path"`
	StartLine  int      `json:"start_line"`
	EndLine    int      `json:"end_line"`
	Name       string   `json:"name,omitempty"`
	Kind       string   `json:"kind"`
	Language   string   `json:"language"`
	Signature  string   `json:"signature,omitempty"`
	Breadcrumb []string `json:"breadcrumb"`
	Score      float64  `json:"score"`
	Snippet    string   `json:"snippet" jsonschema:"with verbose, numbered lines: the chunk's first lines with context; otherwise the lines of code the text shows (none for a hit shown as one line)"`
	Rev        string   `json:"rev"`
	Commit     string   `json:"commit"`
	Blob       string   `json:"blob"`
	ChunkID    string   `json:"chunk_id" jsonschema:"pass to get_chunk for the full text"`
	AlsoIn     []string `json:"also_in,omitempty" jsonschema:"other paths holding the same content"`
	// Generated is kept apart from the code and its doc comment: a model
	// wrote it, not the author.
	Generated *store.GeneratedSummary `json:"generated_summary,omitempty" jsonschema:"what a chat model wrote of this chunk (git bcindex enhance): generated text, not the author's documentation"`

	Refs []search.RefHit `json:"refs" jsonschema:"the searched revisions holding this content, with its path and lines in each"`
	// Also is the file's other chunks among the ranked ones.
	Also [][2]int `json:"also,omitempty" jsonschema:"the lines of the file's other chunks among the hits, best first (without verbose, a file is one hit)"`
}

type searchOut struct {
	Rev      string   `json:"rev"`
	Commit   string   `json:"commit"`
	Hits     []hitOut `json:"hits"`
	Pending  int      `json:"pending_blobs,omitempty" jsonschema:"blobs of rev not indexed yet, missing from the results"`
	NewBlobs int      `json:"indexed_blobs,omitempty" jsonschema:"blobs indexed by this call before searching"`
	// More is the answer's tail: further files, a line each in the text.
	More      []moreOut `json:"more,omitempty" jsonschema:"further files after the hits, from the same ranking, best first (more)"`
	Truncated bool      `json:"truncated"`
	Note      string    `json:"note,omitempty"`
	// Files is the file ranking (files: true); Hits is then empty.
	Files []fileOut `json:"files,omitempty" jsonschema:"with files: the files, best first, each with its best chunks"`

	Revisions []revOut `json:"revisions,omitempty" jsonschema:"the revisions searched, when there are several"`
}

type revOut struct {
	Name   string `json:"name"`
	Commit string `json:"commit"`
}

const searchWindowMax = 1000 // offset + k

func (s *Server) search(ctx context.Context, req *sdk.CallToolRequest, in searchIn) (*sdk.CallToolResult, searchOut, error) {
	out := searchOut{Hits: []hitOut{}}
	q, err := query.Parse(in.Query)
	if err != nil {
		return nil, out, errQueryRequired
	}
	shape := newShape(in)
	k, err := intArg("k", in.K, shape.k, searchKMax)
	if err != nil {
		return nil, out, err
	}
	offset, err := offsetArg(in.Offset)
	if err != nil {
		return nil, out, err
	}
	if offset+k > searchWindowMax {
		return nil, out, fmt.Errorf("offset+k is %d, above the ceiling %d; narrow the query or filter by path, lang or kind", offset+k, searchWindowMax)
	}
	ctxLines, err := optIntArg("context", in.Context, shape.context, searchContextMax)
	if err != nil {
		return nil, out, err
	}
	maxLines, err := intArg("max_lines", in.MaxLines, shape.lines, searchLinesMax)
	if err != nil {
		return nil, out, err
	}
	if shape.more, err = optIntArg("more", in.More, shape.more, tailMax); err != nil {
		return nil, out, err
	}
	if shape.verbose {
		shape.more = 0
	}
	maxBytes, err := intArg("max_bytes", in.MaxBytes, searchBytes, searchBytesMax)
	if err != nil {
		return nil, out, err
	}
	opts := search.Options{Parsed: &q, Rev: in.Rev, K: shape.want(offset, k), Mode: strings.ToLower(in.Mode),
		Path: in.Path, Lang: in.Lang, Kind: in.Kind, Context: ctxLines, MaxLines: maxLines,
		NoSummaries: in.NoSummaries, Embedder: s.opts.Embedder, Files: in.Files}
	if in.Files {
		if offset > 0 {
			return nil, out, fmt.Errorf("files ranks the first k files: it takes no offset")
		}
		opts.K = k
	}
	if len(in.Revs) > 0 || in.AllBranches || in.Tags || in.AllRefs {
		opts.Refs = gitindex.RefSelection{Patterns: in.Revs, AllBranches: in.AllBranches, Tags: in.Tags, All: in.AllRefs}
		if in.Rev != "" {
			opts.Refs.Patterns = append([]string{in.Rev}, in.Revs...)
		}
	}
	p, err := search.NewPlan(s.repo, opts)
	if err != nil {
		return nil, out, fmt.Errorf("search %q: %w", clip(q.Raw, 100), err)
	}
	v, sum, done, err := s.ensure(ctx, req, in.Rev, indexing.Request{Want: p.Want, Parts: indexing.All, NoIndex: in.NoIndex})
	if err != nil {
		return nil, out, fmt.Errorf("search %q: %w", clip(q.Raw, 100), err)
	}
	defer done()
	searcher := search.NewSearcher(v, p)
	res, err := searcher.Search(ctx, &q, opts)
	if err != nil {
		return nil, out, fmt.Errorf("search %q: %w", clip(q.Raw, 100), err)
	}
	out.Rev, out.Commit, out.Pending = res.Commit.Rev, res.Commit.Hash.String(), res.Pending
	if len(res.Revisions) > 1 {
		for _, c := range res.Revisions {
			out.Revisions = append(out.Revisions, revOut{c.Rev, c.Hash.String()})
		}
	}
	if sum != nil {
		out.NewBlobs = sum.BlobsNew
	}
	if in.Files {
		return s.fileAnswer(out, res.Files, maxBytes)
	}
	shape.lines, shape.bytes = maxLines, maxBytes
	blocks := shape.fill(&out, res.Hits, offset, k)
	if hybrid := opts.Mode == "" || opts.Mode == search.ModeHybrid; hybrid && !shape.verbose && offset == 0 && !out.Truncated &&
		len(out.Hits)+len(out.More) < k+shape.more {
		if err := shape.armsTail(ctx, searcher, opts, &out, k+shape.more); err != nil {
			return nil, out, fmt.Errorf("search %q: %w", clip(q.Raw, 100), err)
		}
	}
	if out.Pending > 0 {
		out.Note = joinNote(out.Note, fmt.Sprintf("%d blobs of %s are not indexed yet; results may miss them", out.Pending, out.Rev))
	}
	switch {
	case len(out.Hits) == 0 && len(out.More) == 0:
		out.Note = joinNote(out.Note, "no hits; try other words, mode=text for exact identifiers, or fewer filters")
	case len(out.Hits) == 0:
		out.Note = joinNote(out.Note, "no hits: no chunk has enough evidence from the arms together; the files above are each arm's alone")
	}
	if shape.verbose {
		return text(renderHits(out)), out, nil
	}
	return text(renderCompact(out, blocks)), out, nil
}

// refsLine names the revisions holding a hit, with the path and lines
// where they differ from the hit's.
func refsLine(h hitOut) string {
	var b strings.Builder
	b.WriteString("   in")
	for i, r := range h.Refs {
		sep := ","
		if i == 0 {
			sep = ""
		}
		fmt.Fprintf(&b, "%s %s", sep, r.Name)
		if r.Path != h.Path || r.StartLine != h.StartLine {
			fmt.Fprintf(&b, " (%s:%d-%d)", r.Path, r.StartLine, r.EndLine)
		}
	}
	b.WriteString("\n")
	return b.String()
}

func jsonSize(v any) int {
	b, _ := json.Marshal(v)
	return len(b)
}

func renderHits(o searchOut) string {
	var b strings.Builder
	for i, h := range o.Hits {
		fmt.Fprintf(&b, "%d. %s:%d-%d  %s  (%s, score %.4f)\n   chunk_id %s\n", i+1, h.Path, h.StartLine, h.EndLine,
			strings.Join(h.Breadcrumb[min(1, len(h.Breadcrumb)):], " › "), h.Kind, h.Score, h.ChunkID)
		if h.Signature != "" {
			fmt.Fprintf(&b, "   %s\n", h.Signature)
		}
		if len(o.Revisions) > 0 {
			b.WriteString(refsLine(h))
		}
		if g := h.Generated; g != nil {
			fmt.Fprintf(&b, "   generated by %s, not the author: %s\n", g.Model, g.Summary)
		}
		b.WriteString(h.Snippet)
		b.WriteString("\n")
	}
	if len(o.Revisions) > 0 {
		fmt.Fprintf(&b, "[%d hits in %d revisions]\n", len(o.Hits), len(o.Revisions))
	} else {
		fmt.Fprintf(&b, "[%d hits at %s (commit %.12s)]\n", len(o.Hits), o.Rev, o.Commit)
	}
	if o.Note != "" {
		b.WriteString("[" + o.Note + "]\n")
	}
	return b.String()
}

// progress turns indexing progress into MCP progress notifications, at most
// a few per second, each one further than the last as the protocol asks.
type progress struct {
	ctx   context.Context
	ss    *sdk.ServerSession
	token any
	rev   string

	mu         sync.Mutex
	total      int
	done, sent int
	last       time.Time
}

var _ indexing.Progress = (*progress)(nil)

func (p *progress) Start(total int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.total = total
	p.notify(fmt.Sprintf("indexing %d new blobs of %s", total, revOrHead(p.rev)))
}

func (p *progress) Add(blobs int, _ int64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done += blobs
	if time.Since(p.last) >= 200*time.Millisecond {
		p.notify("")
	}
}

func (p *progress) Finish() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.notify("indexed")
}

func (p *progress) notify(msg string) {
	if p.done <= p.sent && !p.last.IsZero() {
		return
	}
	p.sent, p.last = p.done, time.Now()
	// A client that went away must not stop the indexing: ignore errors.
	_ = p.ss.NotifyProgress(p.ctx, &sdk.ProgressNotificationParams{ProgressToken: p.token, Message: msg,
		Progress: float64(p.done), Total: float64(p.total)})
}

func revOrHead(rev string) string {
	if rev == "" {
		return "HEAD"
	}
	return rev
}
