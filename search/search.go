package search

import (
	"context"
	"errors"
	"fmt"
	"path"
	"sort"
	"strings"
	"time"

	"github.com/bits-and-blooms/bitset"
	"github.com/bmatcuk/doublestar/v4"
	"github.com/go-git/go-git/v5/plumbing"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/gitindex"
)

// Modes of search.
const (
	ModeHybrid = "hybrid"
	ModeSymbol = "symbol"
	ModeText   = "text"
	ModeVector = "vector"
)

// ErrEmptyQuery is returned for a query with nothing to search for.
var ErrEmptyQuery = errors.New("empty query")

// ErrBadMode is returned for an unknown --mode.
var ErrBadMode = errors.New("unknown search mode")

// Options of one search.
type Options struct {
	Query    string
	Rev      string // default HEAD
	K        int    // number of hits; default 10
	Mode     string // hybrid (default), symbol, text, vector
	Path     string // glob over the file path, e.g. "pkg/**/*.go"
	Lang     string // language, e.g. "go"
	Kind     string // chunk kind, e.g. "function"
	Context  int    // lines of context around the snippet
	MaxLines int    // snippet lines of the chunk itself; 0: whole chunk
	NoIndex  bool   // do not index missing blobs first

	Embedder  embed.Embedder // nil: no vector arm
	Index     gitindex.Options
	LockWait  time.Duration // how long to wait for a running indexer
	OnIndexed func(*gitindex.Summary)
}

// Hit is one search result. Its identity (Blob + byte range) is the same
// for the same code in any revision.
type Hit struct {
	Path       string   `json:"path"`
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
	// AlsoIn lists other paths holding the same blob at this revision.
	AlsoIn []string `json:"also_in,omitempty"`
}

// Result of a search.
type Result struct {
	Hits    []Hit
	Commit  gitindex.Commit
	Pending int // blobs of the revision not in the index (with NoIndex)
	Indexed *gitindex.Summary
}

// Search runs a query against one revision of repo.
func Search(ctx context.Context, repo *gitindex.Repo, opts Options) (*Result, error) {
	if strings.TrimSpace(opts.Query) == "" {
		return nil, ErrEmptyQuery
	}
	if opts.K <= 0 {
		opts.K = 10
	}
	if opts.Mode == "" {
		opts.Mode = ModeHybrid
	}
	switch opts.Mode {
	case ModeHybrid, ModeSymbol, ModeText, ModeVector:
	default:
		return nil, fmt.Errorf("%w %q: use hybrid, symbol, text or vector", ErrBadMode, opts.Mode)
	}
	if opts.Path != "" && !doublestar.ValidatePattern(opts.Path) {
		return nil, fmt.Errorf("invalid --path glob %q", opts.Path)
	}
	commit, err := repo.Resolve(opts.Rev)
	if err != nil {
		return nil, err
	}
	res := &Result{Commit: commit}
	view, err := openView(ctx, repo, commit, &opts, res)
	if err != nil {
		return nil, err
	}
	defer view.snap.Close()

	var arms []arm
	if opts.Mode == ModeHybrid || opts.Mode == ModeSymbol {
		arms = append(arms, arm{name: ModeSymbol, weight: 1, cands: view.symbolArm(opts.Query)})
	}
	if opts.Mode == ModeHybrid || opts.Mode == ModeText {
		arms = append(arms, arm{name: ModeText, weight: 1, cands: view.textArm(opts.Query)})
	}
	if (opts.Mode == ModeHybrid || opts.Mode == ModeVector) && opts.Embedder != nil {
		cands, err := view.vectorArm(ctx, opts.Embedder, opts.Query)
		if err != nil {
			return nil, err
		}
		arms = append(arms, arm{name: ModeVector, weight: 1, cands: cands})
	}
	fused := view.fuse(opts.Query, arms)
	if len(fused) > opts.K {
		fused = fused[:opts.K]
	}
	hits, err := view.hits(fused, &opts)
	if err != nil {
		return nil, err
	}
	res.Hits = hits
	return res, nil
}

// view is one revision's slice of the snapshot: which rows are visible, and
// at which path.
type view struct {
	repo   *gitindex.Repo
	commit gitindex.Commit
	rev    string
	snap   *gitindex.Snapshot
	allow  []*bitset.BitSet        // per segment
	paths  []map[int][]string      // per segment: first row of a blob → paths
	blobOf []map[int]plumbing.Hash // per segment: first row of a blob → blob
	first  [][]int32               // per segment: row → first row of its blob
}

func openView(ctx context.Context, repo *gitindex.Repo, commit gitindex.Commit, opts *Options, res *Result) (*view, error) {
	model := ""
	if opts.Embedder != nil {
		model = opts.Embedder.ID()
	}
	for attempt := 0; ; attempt++ {
		listing, lerr := repo.CachedListing(commit.Tree)
		snap, serr := gitindex.OpenSnapshot(repo.IndexDir, model)
		if serr != nil && !errors.Is(serr, gitindex.ErrNoIndex) {
			return nil, serr
		}
		missing := -1
		if lerr == nil && serr == nil {
			missing = countMissing(snap, listing)
		}
		if missing == 0 || (opts.NoIndex && lerr == nil && serr == nil) || attempt > 0 {
			if serr != nil {
				return nil, gitindex.ErrNoIndex
			}
			if lerr != nil {
				snap.Close()
				return nil, fmt.Errorf("revision %s is not indexed: %w", commit.Rev, gitindex.ErrNoIndex)
			}
			res.Pending = missing
			return newView(repo, commit, snap, listing, opts)
		}
		if snap != nil {
			snap.Close()
		}
		if opts.NoIndex {
			return nil, gitindex.ErrNoIndex
		}
		iopts := opts.Index
		iopts.Embedder = opts.Embedder
		sum, err := gitindex.NewIndexer(repo, iopts).Index(ctx, []string{commit.Hash.String()}, opts.LockWait)
		if err != nil && !errors.Is(err, gitindex.ErrLocked) {
			return nil, fmt.Errorf("index %s before searching: %w", commit.Rev, err)
		}
		res.Indexed = sum
		if sum != nil && opts.OnIndexed != nil {
			opts.OnIndexed(sum)
		}
	}
}

func countMissing(snap *gitindex.Snapshot, l *gitindex.Listing) int {
	n := 0
	for _, e := range l.Entries {
		if e.Skip != gitindex.SkipNone {
			continue
		}
		if _, ok := snap.FindBlob(e.Blob); !ok {
			n++
		}
	}
	return n
}

func newView(repo *gitindex.Repo, commit gitindex.Commit, snap *gitindex.Snapshot, l *gitindex.Listing, opts *Options) (*view, error) {
	v := &view{repo: repo, commit: commit, rev: commit.Rev, snap: snap}
	ns := len(snap.Segments)
	v.allow = make([]*bitset.BitSet, ns)
	v.paths = make([]map[int][]string, ns)
	v.blobOf = make([]map[int]plumbing.Hash, ns)
	v.first = make([][]int32, ns)
	for i, seg := range snap.Segments {
		v.allow[i] = bitset.New(uint(seg.Rows()))
		v.paths[i] = map[int][]string{}
		v.blobOf[i] = map[int]plumbing.Hash{}
	}
	for _, e := range l.Entries {
		if e.Skip != gitindex.SkipNone {
			continue
		}
		if opts.Path != "" && !pathMatches(opts.Path, e.Path) {
			continue
		}
		loc, ok := snap.FindBlob(e.Blob)
		if !ok || loc.N == 0 {
			continue
		}
		if ps, seen := v.paths[loc.Seg][loc.First]; seen {
			v.paths[loc.Seg][loc.First] = append(ps, e.Path)
			continue
		}
		v.paths[loc.Seg][loc.First] = []string{e.Path}
		v.blobOf[loc.Seg][loc.First] = e.Blob
		if v.first[loc.Seg] == nil {
			v.first[loc.Seg] = make([]int32, snap.Segments[loc.Seg].Rows())
		}
		seg := snap.Segments[loc.Seg]
		for r := loc.First; r < loc.First+loc.N; r++ {
			v.first[loc.Seg][r] = int32(loc.First)
			if opts.Lang != "" || opts.Kind != "" {
				row := seg.Row(r)
				if opts.Lang != "" && !strings.EqualFold(row.Language, opts.Lang) {
					continue
				}
				if opts.Kind != "" && !strings.EqualFold(row.Kind, opts.Kind) {
					continue
				}
			}
			v.allow[loc.Seg].Set(uint(r))
		}
	}
	return v, nil
}

// pathMatches matches a glob against the whole path, or, for a pattern
// without a slash, against the base name too ("*.go" matches "a/b.go").
func pathMatches(glob, p string) bool {
	if ok, _ := doublestar.Match(glob, p); ok {
		return true
	}
	if !strings.Contains(glob, "/") {
		ok, _ := doublestar.Match(glob, path.Base(p))
		return ok
	}
	if ok, _ := doublestar.Match(strings.TrimSuffix(glob, "/")+"/**", p); ok {
		return true
	}
	return false
}

// cand is a candidate row and its score in one arm.
type cand struct {
	seg, row int
	score    float64
}

func sortCands(c []cand) {
	sort.Slice(c, func(i, j int) bool {
		if c[i].score != c[j].score {
			return c[i].score > c[j].score
		}
		if c[i].seg != c[j].seg {
			return c[i].seg < c[j].seg
		}
		return c[i].row < c[j].row
	})
}
