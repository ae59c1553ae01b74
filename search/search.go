package search

import (
	"context"
	"errors"
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/bits-and-blooms/bitset"
	"github.com/bmatcuk/doublestar/v4"
	"github.com/go-git/go-git/v5/plumbing"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/indexer"
	"github.com/bcindex/bcindex/store"
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

// ErrBadFilter is returned for a --lang or --kind no chunk can have.
var ErrBadFilter = errors.New("unknown filter value")

// Options of one search.
type Options struct {
	Query    string
	Rev      string // default HEAD
	K        int    // number of hits; default 10
	Mode     string // hybrid (default), symbol, text, vector
	Path     string // glob over the file path, e.g. "pkg/**/*.go"
	Lang     string // language, e.g. "go"
	Kind     string // chunk kind, e.g. "function"; "function,method" allows either
	Context  int    // lines of context around the snippet
	MaxLines int    // snippet lines of the chunk itself; 0: whole chunk
	NoIndex  bool   // do not index missing blobs first
	Worktree bool   // search HEAD with the working tree's uncommitted changes

	// Set queries: only chunks whose content hash is in every OnlyIn revision
	// and in no NotIn revision. Rev defaults to OnlyIn[0].
	OnlyIn, NotIn []string

	// Refs selects several revisions (revisions, globs over ref names,
	// groups of refs); when set it replaces Rev, and each hit names the
	// revisions holding its content.
	Refs gitindex.RefSelection

	Embedder  embed.Embedder // nil: no vector arm
	Index     indexer.Options
	LockWait  time.Duration // how long to wait for a running indexer
	OnIndexed func(*indexer.Summary)
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
	store.Meta
}

// Result of a search.
type Result struct {
	Hits    []Hit
	Commit  gitindex.Commit
	Pending int      // blobs of the revision not in the index (with NoIndex)
	Damaged []string // parts of the index left out because they failed their checks
	// NoVectors counts the chunks without vectors of the configured model
	// (it was switched and they were not computed: NoIndex, or another
	// indexer held the lock).
	NoVectors int
	Indexed   *indexer.Summary

	// Revisions are the searched revisions in order (Rev: the name
	// shown); Commit is the first.
	Revisions []gitindex.Commit
}

// Search runs a query against one revision of repo.
func Search(ctx context.Context, repo *gitindex.Repo, opts Options) (*Result, error) {
	if err := checkOptions(&opts); err != nil {
		return nil, err
	}
	name := ""
	if !opts.Refs.Empty() {
		revs, err := repo.ExpandRefs(opts.Refs)
		if err != nil {
			return nil, err
		}
		if len(revs) > 1 {
			return searchMany(ctx, repo, opts, revs)
		}
		opts.Rev, name = revs[0].Rev, revs[0].Name
	}
	if opts.Rev == "" && len(opts.OnlyIn) > 0 {
		opts.Rev = opts.OnlyIn[0]
	}
	commits, err := resolveAll(repo, append(append([]string{opts.Rev}, opts.OnlyIn...), opts.NotIn...))
	if err != nil {
		return nil, err
	}
	if name != "" {
		commits[0].Rev = name
	}
	res := &Result{Commit: commits[0]}
	var snap *store.Snapshot
	var listings []*gitindex.Listing
	if opts.Worktree {
		snap, listings, err = openWorktree(ctx, repo, &opts, res)
		commits[0] = res.Commit
	} else {
		snap, listings, err = openIndexed(ctx, repo, commits, &opts, res)
	}
	if err != nil {
		return nil, err
	}
	defer snap.Close()
	view := newView(repo, commits[0], snap, listings[:1], &opts)
	if len(listings) > 1 {
		view.restrictToSets(listings[1:1+len(opts.OnlyIn)], listings[1+len(opts.OnlyIn):])
	}

	fused, err := view.rank(ctx, &opts)
	if err != nil {
		return nil, err
	}
	if len(fused) > opts.K {
		fused = fused[:opts.K]
	}
	hits, err := view.hits(fused, &opts)
	if err != nil {
		return nil, err
	}
	singleRefs(hits)
	res.Hits = hits
	res.Revisions = []gitindex.Commit{res.Commit}
	return res, nil
}

// rank runs the arms opts.Mode asks for over the view and fuses them.
func (v *view) rank(ctx context.Context, opts *Options) ([]fused, error) {
	var arms []arm
	if opts.Mode == ModeHybrid || opts.Mode == ModeSymbol {
		arms = append(arms, arm{name: ModeSymbol, weight: fusion.weights[ModeSymbol], cands: v.symbolArm(opts.Query)})
	}
	if opts.Mode == ModeHybrid || opts.Mode == ModeText {
		cands, coverage := v.textArm(opts.Query)
		arms = append(arms, arm{name: ModeText, weight: fusion.weights[ModeText], cands: cands, coverage: coverage})
	}
	if (opts.Mode == ModeHybrid || opts.Mode == ModeVector) && opts.Embedder != nil {
		cands, err := v.vectorArm(ctx, opts.Embedder, opts.Query)
		if err != nil {
			return nil, err
		}
		arms = append(arms, arm{name: ModeVector, weight: fusion.weights[ModeVector], cands: cands})
	}
	return v.fuse(opts.Query, arms, opts.Mode == ModeHybrid), nil
}

// checkOptions validates and defaults the options shared by every query.
func checkOptions(opts *Options) error {
	if strings.TrimSpace(opts.Query) == "" {
		return ErrEmptyQuery
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
		return fmt.Errorf("%w %q: use hybrid, symbol, text or vector", ErrBadMode, opts.Mode)
	}
	if opts.Path != "" && !doublestar.ValidatePattern(opts.Path) {
		return fmt.Errorf("invalid --path glob %q", opts.Path)
	}
	return checkFilters(opts.Lang, opts.Kind)
}

// view is one revision's slice of the snapshot (or the union of several
// revisions'): which rows are visible, and at which paths.
type view struct {
	repo   *gitindex.Repo
	commit gitindex.Commit
	rev    string
	snap   *store.Snapshot
	allow  []*bitset.BitSet        // per segment
	paths  []map[int][]string      // per segment: first row of a blob → paths
	blobOf []map[int]plumbing.Hash // per segment: first row of a blob → blob
	first  [][]int32               // per segment: row → first row of its blob
}

func resolveAll(repo *gitindex.Repo, revs []string) ([]gitindex.Commit, error) {
	out := make([]gitindex.Commit, len(revs))
	for i, rev := range revs {
		c, err := repo.Resolve(rev)
		if err != nil {
			return nil, err
		}
		out[i] = c
	}
	return out, nil
}

// openIndexed opens a snapshot in which every commit is indexed, indexing
// missing blobs first unless opts.NoIndex, and returns the commits' listings
// in order. res.Pending counts the blobs still missing.
func openIndexed(ctx context.Context, repo *gitindex.Repo, commits []gitindex.Commit, opts *Options, res *Result) (*store.Snapshot, []*gitindex.Listing, error) {
	model := ""
	if opts.Embedder != nil {
		model = opts.Embedder.ID()
	}
	for attempt := 0; ; attempt++ {
		listings := make([]*gitindex.Listing, len(commits))
		var lerr error
		var unlisted gitindex.Commit
		list := repo.CachedListing
		if opts.NoIndex {
			list = repo.Listing // listing a tree reads git, never the store: fine while an indexer runs
		}
		for i, c := range commits {
			if listings[i], lerr = list(c.Tree); lerr != nil {
				unlisted = c
				break
			}
		}
		snap, serr := store.OpenSnapshot(repo.IndexDir, model)
		// An index of an older schema, or with a damaged manifest, is
		// rebuilt by the indexer below.
		rebuild := (errors.Is(serr, store.ErrSchema) || errors.Is(serr, store.ErrCorrupt)) && !opts.NoIndex && attempt == 0
		if serr != nil && !errors.Is(serr, store.ErrNoIndex) && !rebuild {
			return nil, nil, serr
		}
		missing := -1
		if lerr == nil && serr == nil {
			missing = countMissing(snap, listings...)
		}
		// A switch of model leaves every blob indexed but without the new
		// model's vectors: the indexer computes them, as it does new blobs.
		if missing == 0 && !opts.NoIndex && attempt == 0 && opts.Embedder != nil && withoutVectors(snap) > 0 {
			missing = -1
		}
		if missing == 0 || (opts.NoIndex && lerr == nil && serr == nil) || attempt > 0 {
			if serr != nil {
				return nil, nil, store.ErrNoIndex
			}
			if lerr != nil {
				snap.Close()
				return nil, nil, fmt.Errorf("revision %s is not indexed: %w", unlisted.Rev, store.ErrNoIndex)
			}
			res.Pending = max(missing, 0)
			for _, d := range snap.Damaged {
				res.Damaged = append(res.Damaged, d.String())
			}
			if opts.Embedder != nil {
				res.NoVectors = withoutVectors(snap)
			}
			return snap, listings, nil
		}
		if snap != nil {
			snap.Close()
		}
		if opts.NoIndex {
			return nil, nil, store.ErrNoIndex
		}
		iopts := opts.Index
		iopts.Embedder = opts.Embedder
		revs := make([]string, len(commits))
		for i, c := range commits {
			revs[i] = c.Hash.String()
		}
		sum, err := indexer.NewIndexer(repo, iopts).Index(ctx, revs, opts.LockWait)
		if err != nil && !errors.Is(err, store.ErrLocked) {
			return nil, nil, fmt.Errorf("index %s before searching: %w", commits[0].Rev, err)
		}
		res.Indexed = sum
		if sum != nil && opts.OnIndexed != nil {
			opts.OnIndexed(sum)
		}
	}
}

// openWorktree indexes the working tree's changed files (only blobs not
// seen before) and opens HEAD's listing with those files substituted.
func openWorktree(ctx context.Context, repo *gitindex.Repo, opts *Options, res *Result) (*store.Snapshot, []*gitindex.Listing, error) {
	if len(opts.OnlyIn) > 0 || len(opts.NotIn) > 0 || (opts.Rev != "" && opts.Rev != "HEAD") {
		return nil, nil, fmt.Errorf("--worktree searches HEAD with uncommitted changes; it does not combine with --ref, --only-in or --not-in")
	}
	maxSize := opts.Index.MaxFileSize
	if maxSize <= 0 {
		maxSize = indexer.DefaultMaxFileSize
	}
	l, head, err := repo.WorktreeListing(ctx, maxSize)
	if err != nil {
		return nil, nil, err
	}
	head.Rev = "worktree"
	res.Commit = head
	if !opts.NoIndex {
		iopts := opts.Index
		iopts.Embedder = opts.Embedder
		sum, err := indexer.NewIndexer(repo, iopts).IndexListing(ctx, l, opts.LockWait)
		if err != nil && !errors.Is(err, store.ErrLocked) {
			return nil, nil, fmt.Errorf("index the working tree before searching: %w", err)
		}
		res.Indexed = sum
		if sum != nil && opts.OnIndexed != nil {
			opts.OnIndexed(sum)
		}
	}
	model := ""
	if opts.Embedder != nil {
		model = opts.Embedder.ID()
	}
	snap, err := store.OpenSnapshot(repo.IndexDir, model)
	if err != nil {
		return nil, nil, err
	}
	res.Pending = countMissing(snap, l)
	return snap, []*gitindex.Listing{l}, nil
}

// withoutVectors counts the chunks in segments without vectors of the
// snapshot's model.
func withoutVectors(snap *store.Snapshot) int {
	n := 0
	for _, seg := range snap.Segments {
		if seg.Vec == nil {
			n += seg.Rows()
		}
	}
	return n
}

// countMissing counts the distinct blobs of the listings that no segment holds.
func countMissing(snap *store.Snapshot, ls ...*gitindex.Listing) int {
	if len(ls) == 1 {
		// One revision: the view looks the same entries up again (Locate
		// remembers them).
		missing := map[plumbing.Hash]bool{}
		for i, loc := range snap.Locate(ls[0]) {
			if e := ls[0].Entries[i]; loc.Seg < 0 && e.Skip == gitindex.SkipNone {
				missing[e.Blob] = true
			}
		}
		return len(missing)
	}
	// A history repeats most blobs: look each up once.
	found := map[plumbing.Hash]bool{}
	n := 0
	for _, l := range ls {
		for _, e := range l.Entries {
			if e.Skip != gitindex.SkipNone {
				continue
			}
			if _, checked := found[e.Blob]; checked {
				continue
			}
			_, ok := snap.FindBlob(e.Blob)
			found[e.Blob] = ok
			if !ok {
				n++
			}
		}
	}
	return n
}

// newView makes the rows of the listings' blobs visible (one listing for a
// revision; several for the union of a history), filtered by opts.
func newView(repo *gitindex.Repo, commit gitindex.Commit, snap *store.Snapshot, ls []*gitindex.Listing, opts *Options) *view {
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
	var seen map[pathBlob]bool
	if len(ls) > 1 {
		seen = map[pathBlob]bool{} // a history repeats most (path, blob) pairs
	}
	for _, l := range ls {
		v.add(l, opts, seen)
	}
	return v
}

type pathBlob struct {
	path string
	blob plumbing.Hash
}

func (v *view) add(l *gitindex.Listing, opts *Options, seen map[pathBlob]bool) {
	snap := v.snap
	var locs []store.BlobLoc
	if seen == nil {
		locs = snap.Locate(l) // one revision: usually located already
	}
	for i, e := range l.Entries {
		if e.Skip != gitindex.SkipNone {
			continue
		}
		if seen != nil {
			k := pathBlob{e.Path, e.Blob}
			if seen[k] {
				continue
			}
			seen[k] = true
		}
		if opts.Path != "" && !pathMatches(opts.Path, e.Path) {
			continue
		}
		var loc store.BlobLoc
		if locs != nil {
			loc = locs[i]
		} else if found, ok := snap.FindBlob(e.Blob); ok {
			loc = found
		} else {
			loc.Seg = -1
		}
		if loc.Seg < 0 || loc.N == 0 {
			continue
		}
		if ps, seen := v.paths[loc.Seg][loc.First]; seen {
			if !slices.Contains(ps, e.Path) {
				v.paths[loc.Seg][loc.First] = append(ps, e.Path)
			}
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
				if opts.Kind != "" && !kindMatch(row.Kind, opts.Kind) {
					continue
				}
			}
			v.allow[loc.Seg].Set(uint(r))
		}
	}
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

// kindMatch reports whether a row's kind is one of the comma-separated kinds.
func kindMatch(kind, kinds string) bool {
	for _, k := range strings.Split(kinds, ",") {
		if strings.EqualFold(kind, strings.TrimSpace(k)) {
			return true
		}
	}
	return false
}
