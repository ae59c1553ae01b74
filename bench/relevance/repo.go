package relevance

import (
	"context"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"time"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/indexer"
	"github.com/bcindex/bcindex/search"
	"github.com/bcindex/bcindex/store"
)

// Modes a suite is asked in: each arm alone, the hybrid, the hybrid's
// ranking of files (search --files: each file's best chunk, best file
// first), and plain BM25 over the chunks (the text arm's scores without
// bcindex's code-aware ranking), in report order.
const (
	ModeHybrid = search.ModeHybrid
	ModeFiles  = "files"
	ModeSymbol = search.ModeSymbol
	ModeText   = search.ModeText
	ModeVector = search.ModeVector
	ModeBM25   = "bm25"
)

// Modes is every mode, in report order.
var Modes = []string{ModeHybrid, ModeFiles, ModeSymbol, ModeText, ModeVector, ModeBM25}

// OpenOptions say where a repository comes from and where its tree is
// built.
type OpenOptions struct {
	// ReposDir holds a pointer per repository name (a git directory, a
	// work tree, or a symlink to one); a repository not there is cloned
	// from its URL into Work.
	ReposDir string
	// Work holds the built trees (<name>.git) and their indexes. A tree
	// built before is reused; its index too unless Reindex.
	Work    string
	Reindex bool
	// Embedder is the model (nil: the built-in one). An index built
	// before without its vectors gets them: each model's are kept under
	// its ID, so models compared must have IDs of their own.
	Embedder embed.Embedder
}

// Repo is one repository's tree at its pinned revision, indexed.
type Repo struct {
	Spec Spec
	// Dir is the git directory of the built tree.
	Dir string
	// IndexTime is the cold index of the tree in this process (0 when an
	// index built before was reused); Chunks, the chunks it made.
	IndexTime time.Duration
	Chunks    int
	// Spans are every chunk a search can return.
	Spans []Span
	repo  *gitindex.Repo
	view  *store.View // the index of the tree, opened once for every query
	// searcher answers every query over view.
	searcher search.Searcher
	emb      embed.Embedder
}

// Hit is one ranked hit, its path relative to the repository
// (benchmark_root included), as the suite's targets are written.
type Hit struct {
	Span
	search.Hit
}

// Open builds a repository's tree at its pinned revision and indexes it.
func Open(ctx context.Context, s Spec, o OpenOptions) (*Repo, error) {
	if o.Work == "" {
		return nil, fmt.Errorf("open %s: no work directory", s.Name)
	}
	src, err := sourceGitDir(ctx, o.ReposDir, o.Work, s)
	if err != nil {
		return nil, err
	}
	dst := filepath.Join(o.Work, s.Name+".git")
	if err := buildTree(ctx, src, dst, s); err != nil {
		return nil, fmt.Errorf("build the tree of %s: %w", s.Name, err)
	}
	emb := o.Embedder
	if emb == nil {
		emb = embed.Default()
	}
	r := &Repo{Spec: s, Dir: dst, emb: emb}
	if o.Reindex {
		if err := os.RemoveAll(filepath.Join(dst, "bcindex")); err != nil {
			return nil, err
		}
	}
	if r.repo, err = gitindex.OpenRepo(dst); err != nil {
		return nil, err
	}
	if _, err := os.Stat(filepath.Join(dst, "bcindex")); os.IsNotExist(err) {
		start := time.Now()
		sum, err := indexer.NewIndexer(r.repo, indexer.Options{Embedder: emb}).Index(ctx, []string{branch}, time.Minute)
		if err != nil {
			r.Close()
			return nil, fmt.Errorf("index %s: %w", s.Name, err)
		}
		r.IndexTime = time.Since(start)
		r.Chunks = sum.Chunks
	} else if o.Embedder != nil {
		// The index may predate this model: add its vectors (a no-op
		// when they are there).
		if _, err := indexer.NewIndexer(r.repo, indexer.Options{Embedder: emb}).Index(ctx, []string{branch}, time.Minute); err != nil {
			r.Close()
			return nil, fmt.Errorf("index %s: %w", s.Name, err)
		}
	}
	p, err := search.NewPlan(r.repo, search.Options{Query: s.Name, Rev: branch})
	if err != nil {
		r.Close()
		return nil, err
	}
	if r.view, err = store.Open(ctx, r.repo, p.Want, emb.ID()); err != nil {
		r.Close()
		return nil, fmt.Errorf("open the index of %s: %w", s.Name, err)
	}
	r.searcher = search.NewSearcher(r.view, p)
	cs, err := search.ChunkSpans(ctx, r.view)
	if err != nil {
		r.Close()
		return nil, fmt.Errorf("list the chunks of %s: %w", s.Name, err)
	}
	for _, c := range cs {
		r.Spans = append(r.Spans, Span{Path: r.repoPath(c.Path), StartLine: c.StartLine, EndLine: c.EndLine})
	}
	if r.Chunks == 0 {
		r.Chunks = len(r.Spans)
	}
	return r, nil
}

// repoPath is a tree path as a path of the repository.
func (r *Repo) repoPath(p string) string {
	if r.Spec.Root == "" {
		return p
	}
	return path.Join(r.Spec.Root, p)
}

// Search asks one query in one mode and returns the k best hits.
func (r *Repo) Search(ctx context.Context, q, mode string, k int) ([]Hit, error) {
	opts := search.Options{Query: q, Rev: branch, Mode: mode, K: k}
	switch mode {
	case ModeBM25:
		opts.Mode, opts.Raw = ModeText, true
	case ModeFiles:
		opts.Mode, opts.Files, opts.Embedder = ModeHybrid, true, r.emb
	case ModeHybrid, ModeVector:
		opts.Embedder = r.emb
	}
	res, err := r.searcher.Search(ctx, nil, opts)
	if err != nil {
		return nil, fmt.Errorf("%s: search %q (%s): %w", r.Spec.Name, q, mode, err)
	}
	hits := res.Hits
	if mode == ModeFiles {
		hits = hits[:0:0]
		for _, f := range res.Files {
			hits = append(hits, f.Hits[0])
		}
	}
	out := make([]Hit, len(hits))
	for i, h := range hits {
		out[i] = Hit{Span: Span{Path: r.repoPath(h.Path), StartLine: h.StartLine, EndLine: h.EndLine}, Hit: h}
	}
	return out, nil
}

// Close releases the repository.
func (r *Repo) Close() error {
	if r.view != nil {
		r.view.Close()
	}
	if r.repo == nil {
		return nil
	}
	return r.repo.Close()
}
