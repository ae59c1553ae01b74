package search

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/query"
	"github.com/bcindex/bcindex/store"
	"github.com/bcindex/bcindex/vector"
)

// Modes of search.
const (
	ModeHybrid = "hybrid"
	ModeSymbol = "symbol"
	ModeText   = "text"
	ModeVector = "vector"
)

// ErrEmptyQuery is returned for a query with nothing to search for.
var ErrEmptyQuery = query.ErrEmpty

// ErrBadMode is returned for an unknown --mode.
var ErrBadMode = errors.New("unknown search mode")

// ErrBadFilter is returned for a --lang or --kind no chunk can have.
var ErrBadFilter = errors.New("unknown filter value")

// Options of one search.
type Options struct {
	// Query is the text to search for. It is parsed once, where the
	// search starts; a caller that parsed it already (to highlight the
	// hits) passes Parsed instead, and every part of the search reads
	// that value. Inside a search both are set and agree.
	Query    string
	Parsed   *query.Query
	Rev      string   // default HEAD
	K        int      // number of hits; default 10
	Mode     string   // hybrid (default), symbol, text, vector
	Path     string   // glob over the file path, e.g. "pkg/**/*.go"; "!GLOB" excludes
	Exclude  []string // globs of paths to leave out (query.PathFilter)
	Lang     string   // language, e.g. "go"
	Kind     string   // chunk kind, e.g. "function"; "function,method" allows either
	Context  int      // lines of context around the snippet
	MaxLines int      // snippet lines, context included (the chunk's own first); 0: whole chunk
	Worktree bool     // search HEAD with the working tree's uncommitted changes

	// Set queries: only chunks whose content hash is in every OnlyIn revision
	// and in no NotIn revision. Rev defaults to OnlyIn[0].
	OnlyIn, NotIn []string

	// Refs selects several revisions (revisions, globs over ref names,
	// groups of refs); when set it replaces Rev, and each hit names the
	// revisions holding its content.
	Refs gitindex.RefSelection

	Embedder embed.Embedder // nil: no vector arm
	// NoSummaries leaves generated summaries (`git bcindex enhance`) out
	// of the ranking and the hits, to compare.
	NoSummaries bool
	// Files ranks files instead of chunks: K files, each with its best
	// chunks (Result.Files); Hits then holds those chunks, file by file.
	Files bool
	// Raw ranks by one arm's own scores (Mode symbol, text or vector),
	// without the code-aware adjustments, the collapsing of a definition's
	// pieces and the exact-match tier: with Mode text, plain BM25 over the
	// chunks, a benchmark's baseline.
	Raw bool

	// Unexported, for the package's own tuning tools and tests: ranking
	// replaces the tuned fusion settings (nil: defaultFusion), and parse
	// replaces query.Parse, where a test counts the parses of a search.
	ranking *fusionConfig
	parse   func(string) (query.Query, error)
	// filter is Path, Exclude, Lang and Kind compiled: by the Plan, once
	// per query.
	filter *filter
}

// Hit is one search result. Its identity (Blob + byte range) is the same
// for the same code in any revision.
type Hit struct {
	Path string `json:"path"`
	// PathBytes holds the path's exact bytes (base64 in JSON) when they are
	// not valid UTF-8, which a JSON string cannot carry.
	PathBytes  []byte   `json:"path_bytes,omitempty"`
	StartLine  int      `json:"start_line"`
	EndLine    int      `json:"end_line"`
	StartByte  int      `json:"start_byte"`
	EndByte    int      `json:"end_byte"`
	Name       string   `json:"name"`
	Kind       string   `json:"kind"`
	Language   string   `json:"language"`
	Signature  string   `json:"signature,omitempty"`
	Breadcrumb []string `json:"breadcrumb"`
	Parent     string   `json:"parent,omitempty"`
	Score      float64  `json:"score"`
	Ref        string   `json:"ref"`
	Commit     string   `json:"commit"`
	Blob       string   `json:"blob"`
	ChunkID    string   `json:"chunk_id"`
	Snippet    string   `json:"snippet"`
	// SnippetStart is the line number of the snippet's first line.
	SnippetStart int `json:"snippet_start_line"`
	// AlsoIn lists other paths holding the same blob at this revision, and
	// "path:start-end" of the same chunk text in other files.
	AlsoIn []string `json:"also_in,omitempty"`
	// ParentSignature and ParentChunkID identify the enclosing definition
	// (for a method its class, for a block its function).
	ParentSignature string `json:"parent_signature,omitempty"`
	ParentChunkID   string `json:"parent_chunk_id,omitempty"`
	HasSyntaxErrors bool   `json:"has_syntax_errors"`
	ContentHash     string `json:"content_hash,omitempty"`
	// Refs are the searched revisions holding this content, each with the
	// path and lines it has there, in the order they were asked.
	Refs []RefHit `json:"refs,omitempty"`
	// GeneratedSummary is what a chat model wrote of the chunk (`git
	// bcindex enhance`): generated text, shown marked so and never as the
	// author's doc comment (Meta.Doc).
	GeneratedSummary *store.GeneratedSummary `json:"generated_summary,omitempty"`
	store.Meta
}

// Result of a search.
type Result struct {
	Hits    []Hit
	Commit  gitindex.Commit
	Pending int      // blobs of the revision not in the index (read with indexer.None)
	Damaged []string // parts of the index left out because they failed their checks
	// NoVectors counts the chunks without vectors of the configured model
	// (it was switched and they were not computed: read with
	// indexer.None, or another indexer held the lock).
	NoVectors int
	// NoExactName is set when the query is one identifier that names no
	// chunk of the revision: the hits are only related code.
	NoExactName bool

	// Revisions are the searched revisions in order (Rev: the name
	// shown); Commit is the first.
	Revisions []gitindex.Commit
	// Files is the file ranking (Options.Files).
	Files []FileHit
}

// errWorktree refuses --worktree with other revisions.
var errWorktree = errors.New("--worktree searches HEAD with uncommitted changes; it does not combine with --ref, --only-in or --not-in")

// onceMore runs a query, and runs it again when its scan faulted because
// gc rewrote the log that holds vectors it had mapped: opened again, the
// segments map them where they are now.
func onceMore[T any](v *store.View, query func() (T, error)) (T, error) {
	res, err := query()
	if errors.Is(err, vector.ErrFault) {
		if err = v.Reopen(); err == nil {
			res, err = query()
		}
	}
	return res, err
}

// searchOne runs a query over the one revision of its plan (and the sets
// OnlyIn and NotIn restrict it by).
func searchOne(ctx context.Context, rd *store.View, q *query.Query, opts *Options, p *Plan) (*Result, error) {
	res := &Result{Pending: rd.Pending, Damaged: rd.Damaged, NoVectors: rd.NoVectors}
	if opts.Worktree {
		res.Commit = rd.Commit
	} else {
		res.Commit = p.Want.Commits[0]
	}
	view := viewOf(rd.Repo, res.Commit, rd, 1, opts)
	if len(rd.Listings) > 1 {
		sets := rd.Listings[1:]
		view.restrictToSets(sets[:p.onlyIn()], sets[p.onlyIn():])
	}

	view.loadSummaries(opts, res)
	fused, err := view.rank(ctx, q, opts)
	if err != nil {
		return nil, err
	}
	if (opts.Mode == ModeHybrid || opts.Mode == ModeText) && !opts.Raw {
		fused = view.exactFirst(q, fused)
	}
	res.Revisions = []gitindex.Commit{res.Commit}
	res.NoExactName = q.Shape == query.Identifier && (opts.Mode == ModeHybrid || opts.Mode == ModeSymbol) && !view.namedExactly
	if opts.Files {
		res.Files, res.Hits, err = view.fileHits(fused, opts)
		return res, err
	}
	if len(fused) > opts.K {
		fused = fused[:opts.K]
	}
	hits, err := view.hits(fused, opts)
	if err != nil {
		return nil, err
	}
	singleRefs(hits)
	res.Hits = hits
	return res, nil
}

// rank runs the arms opts.Mode asks for over the view and fuses them.
// The arms only read the view (the text arm also sets its file scores),
// so they run at once: each reads every visible row, and one query's
// arms then share the cores.
func (v *view) rank(ctx context.Context, q *query.Query, opts *Options) ([]fused, error) {
	var symbol, text, vec *arm
	var wg sync.WaitGroup
	if opts.Mode == ModeHybrid || opts.Mode == ModeSymbol {
		symbol = &arm{name: ModeSymbol, weight: v.fusion.weights[ModeSymbol]}
		wg.Go(func() { symbol.cands = v.symbolArm(q) })
	}
	if opts.Mode == ModeHybrid || opts.Mode == ModeText {
		text = &arm{name: ModeText, weight: v.fusion.weights[ModeText]}
		wg.Go(func() { text.cands, text.top = v.textArm(q.Terms) })
	}
	var err error
	if (opts.Mode == ModeHybrid || opts.Mode == ModeVector) && opts.Embedder != nil {
		vec = &arm{name: ModeVector, weight: v.fusion.weights[ModeVector]}
		vec.cands, err = v.vectorArm(ctx, opts.Embedder, q.Raw)
	}
	wg.Wait()
	if err != nil {
		return nil, err
	}
	if v.fusion.liftBlocks && !opts.Raw {
		for _, a := range []*arm{text, vec} {
			if a != nil {
				a.cands = v.liftBlocks(a.cands)
			}
		}
	}
	var arms []arm
	if symbol != nil {
		v.namedExactly = len(symbol.cands) > 0 && symbol.cands[0].score >= symbolExact
		arms = append(arms, *symbol)
	}
	if text != nil {
		arms = append(arms, *text)
	}
	if vec != nil {
		arms = append(arms, *vec)
	}
	if opts.Raw {
		return rawOrder(arms), nil
	}
	return v.fuse(q, arms, opts.Mode == ModeHybrid), nil
}

// rawOrder is one arm's ranking as the arm scored it (Options.Raw).
func rawOrder(arms []arm) []fused {
	if len(arms) != 1 {
		return nil
	}
	out := make([]fused, len(arms[0].cands))
	for i, c := range arms[0].cands {
		out[i] = fused{seg: c.seg, row: c.row, score: c.score}
	}
	return out
}

// parseQuery parses the query text, once per search: every later step
// reads opts.Parsed. A query the caller parsed is taken as it is.
func parseQuery(opts *Options) error {
	parse := opts.parse
	if parse == nil {
		parse = query.Parse
	}
	q, err := query.Of(opts.Query, opts.Parsed, parse)
	if err != nil {
		return err
	}
	opts.Query, opts.Parsed = q.Raw, q
	return nil
}

// checkOptions validates and defaults the options shared by every query,
// and compiles their filters.
func checkOptions(opts *Options) error {
	if err := checkRanking(opts); err != nil {
		return err
	}
	f, err := compileFilter(opts)
	opts.filter = f
	return err
}

// checkRanking validates and defaults how a query is ranked and shown.
func checkRanking(opts *Options) error {
	if opts.K <= 0 {
		opts.K = 10
	}
	if opts.Mode == "" {
		opts.Mode = ModeHybrid
	}
	switch opts.Mode {
	case ModeHybrid, ModeSymbol, ModeText, ModeVector:
	default:
		return fmt.Errorf("%w %q: use hybrid, symbol, text or vector", ErrBadMode, opts.Mode)
	}
	if opts.Raw && opts.Mode == ModeHybrid {
		return fmt.Errorf("%w: a raw ranking is one arm's: use symbol, text or vector", ErrBadMode)
	}
	return nil
}
