package bench

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/indexer"
)

// indexSummary is the part of `git-bcindex index --json` the harness reads.
type indexSummary struct {
	Files     int   `json:"files"`
	Blobs     int   `json:"blobs"`
	BlobsNew  int   `json:"blobs_new"`
	Chunks    int   `json:"chunks"`
	Embedded  int   `json:"embedded"`
	Bytes     int64 `json:"bytes"`
	ElapsedMs int64 `json:"elapsed_ms"`
}

// bench is one run's state.
type bench struct {
	cfg  Config
	r    *runner
	bin  string
	rp   *repo
	rep  *Report
	logf func(format string, a ...any)
}

// Run measures one corpus as configured. It removes its temporary files
// unless cfg.Keep; on cancellation it returns ctx's error.
func Run(ctx context.Context, cfg Config) (*Report, error) {
	start := time.Now()
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	b := &bench{cfg: cfg, rep: &Report{Machine: machine()}}
	b.logf = func(format string, a ...any) {
		fmt.Fprintf(cfg.Log, "[%5.0fs] %s\n", time.Since(start).Seconds(), fmt.Sprintf(format, a...))
	}
	work := cfg.WorkDir
	if work != "" {
		if ents, err := os.ReadDir(work); err == nil && len(ents) > 0 {
			return nil, fmt.Errorf("%w: work directory %s is not empty", ErrConfig, work)
		}
	} else {
		if work, err = os.MkdirTemp("", "bcindex-bench-"); err != nil {
			return nil, fmt.Errorf("benchmark work dir: %w", err)
		}
		if cfg.Keep {
			b.logf("keeping %s", work)
		} else {
			defer os.RemoveAll(work)
		}
	}
	if err := b.run(ctx, work); err != nil {
		return nil, err
	}
	b.rep.ElapsedSec = time.Since(start).Seconds()
	return b.rep, nil
}

func (b *bench) run(ctx context.Context, work string) error {
	for _, d := range []string{"home", "repo", "dl"} {
		if err := os.MkdirAll(filepath.Join(work, d), 0o755); err != nil {
			return fmt.Errorf("benchmark work dir: %w", err)
		}
	}
	b.r = newRunner(filepath.Join(work, "home"))
	var err error
	histSrc := ""
	if b.cfg.HistoryCommits >= 0 {
		if histSrc, err = historyRepo(ctx, b.cfg); err != nil {
			return err
		}
	}
	if b.bin, err = b.binary(ctx, work); err != nil {
		return err
	}
	dir := filepath.Join(work, "repo")
	b.logf("corpus: fetching and copying")
	srcs, err := corpusSources(ctx, b.cfg, filepath.Join(work, "dl"))
	if err != nil {
		return err
	}
	c, err := copySources(ctx, srcs, dir)
	if err != nil {
		return err
	}
	b.logf("corpus: %s, %d files, %s; committing in %d commits", c.Name, len(c.Files), mb(c.Bytes), b.cfg.Commits)
	if b.rp, err = buildRepo(ctx, b.r, dir, c, b.cfg.Commits, b.cfg.Repack); err != nil {
		return err
	}
	nb, err := b.rp.branch(ctx, "feature", b.cfg.BranchFraction)
	if err != nil {
		return fmt.Errorf("make second branch: %w", err)
	}
	b.rep.Corpus = CorpusStats{Name: c.Name, Files: len(c.Files), Bytes: c.Bytes, TextFiles: c.IndexFiles, Lines: c.Lines, Commits: b.cfg.Commits, BranchFiles: nb}

	if err := b.indexing(ctx, dir); err != nil {
		return err
	}
	s, err := b.measureSize(ctx, "corpus", "HEAD")
	if err != nil {
		return err
	}
	b.rep.Sizes = append(b.rep.Sizes, s)
	if b.cfg.ScaleChunks > 0 {
		s, err := b.scaleUp(ctx)
		if err != nil {
			return err
		}
		b.rep.Sizes = append(b.rep.Sizes, s)
	}
	if histSrc != "" {
		if b.rep.History, err = b.history(ctx, histSrc, filepath.Join(work, "history")); err != nil {
			return err
		}
	}
	b.rep.Targets = evaluate(b.rep, b.cfg)
	return nil
}

// binary builds cmd/git-bcindex from the source tree as install.sh builds
// git-bcindex, without the cluster client (or uses cfg.Binary).
func (b *bench) binary(ctx context.Context, work string) (string, error) {
	if b.cfg.Binary != "" {
		return b.cfg.Binary, nil
	}
	src := b.cfg.Source
	plain := &runner{env: os.Environ()}
	if src == "" {
		p, err := plain.run(ctx, ".", nil, nil, "go", "env", "GOMOD")
		if err != nil {
			return "", fmt.Errorf("find the bcindex module: %w", err)
		}
		gomod := strings.TrimSpace(string(p.Stdout))
		if gomod == "" || gomod == os.DevNull {
			return "", errors.New("find the bcindex module: not inside a Go module; run from the bcindex checkout or pass -src")
		}
		src = filepath.Dir(gomod)
	}
	if _, err := os.Stat(filepath.Join(src, "cmd", "git-bcindex")); err != nil {
		return "", fmt.Errorf("%s is not a bcindex checkout: %w", src, err)
	}
	bin := filepath.Join(work, "git-bcindex")
	b.logf("building %s", bin)
	if _, err := plain.run(ctx, src, nil, nil, "go", "build", "-tags", "nocluster", "-o", bin, "./cmd/git-bcindex"); err != nil {
		return "", fmt.Errorf("build git-bcindex: %w", err)
	}
	return bin, nil
}

// index runs `git-bcindex index --json revs...` as a new process.
func (b *bench) index(ctx context.Context, revs ...string) (*indexSummary, *proc, error) {
	var s indexSummary
	p, err := b.indexJSON(ctx, b.rp.dir, &s, revs...)
	if err != nil {
		return nil, nil, err
	}
	return &s, p, nil
}

// indexing measures the full index of main, the second branch and a
// one-file commit, in that order.
func (b *bench) indexing(ctx context.Context, dir string) error {
	b.logf("full index of HEAD")
	full, p, err := b.index(ctx, "HEAD")
	if err != nil {
		return err
	}
	secs := p.Elapsed.Seconds()
	ix := IndexStats{Files: full.Files, Blobs: full.Blobs, Bytes: full.Bytes, Chunks: full.Chunks, Embedded: full.Embedded,
		Seconds: secs, BlobsPerSec: float64(full.BlobsNew) / secs, ChunksSec: float64(full.Chunks) / secs,
		MBPerSec: float64(full.Bytes) / 1e6 / secs, LinesPerSec: float64(b.rp.corpus.Lines) / secs, PeakRSS: p.MaxRSS}
	ix.StoreBytes = dirSize(filepath.Join(dir, ".git", "bcindex"))
	if full.Bytes > 0 {
		ix.StoreRatio = float64(ix.StoreBytes) / float64(full.Bytes)
	}
	b.rep.Index = ix
	b.logf("full index: %d chunks in %.1f s", full.Chunks, secs)

	b.logf("index the second branch (%d times)", b.cfg.BranchReps)
	br, runs, rss, err := b.indexBranch(ctx, filepath.Join(dir, ".git", "bcindex"))
	if err != nil {
		return err
	}
	in := Incremental{BranchSec: median(runs), BranchRuns: runs, BranchBlobs: br.BlobsNew, BranchBytes: br.Bytes, BranchRSS: rss}
	if full.Bytes > 0 {
		in.BranchBytesShare = float64(br.Bytes) / float64(full.Bytes)
	}
	b.logf("one-file commit")
	if err := b.rp.oneFileCommit(ctx); err != nil {
		return fmt.Errorf("one-file commit: %w", err)
	}
	if _, p, err = b.index(ctx, "HEAD"); err != nil {
		return err
	}
	in.OneFileSec = p.Elapsed.Seconds()
	in.OneFileRatio, in.BranchRatio = in.OneFileSec/secs, in.BranchSec/secs
	b.rep.Incremental = in
	return nil
}

// indexBranch indexes the second branch BranchReps times, each time from a
// copy of the index as the full index left it (synced to disk and opened
// once since the copy), and returns the last run's
// summary, every run's seconds and the largest peak RSS. One run of under a
// second is at the mercy of whatever else the machine does at that moment;
// the median of several is not.
func (b *bench) indexBranch(ctx context.Context, indexDir string) (*indexSummary, []float64, int64, error) {
	saved := indexDir + "-after-full"
	if b.cfg.BranchReps > 1 {
		// Synced, so that writing it back does not happen during a run.
		if err := copySynced(saved, indexDir); err != nil {
			return nil, nil, 0, fmt.Errorf("save the index: %w", err)
		}
		defer os.RemoveAll(saved)
	}
	var (
		br   *indexSummary
		runs []float64
		rss  int64
	)
	for i := range b.cfg.BranchReps {
		if i > 0 {
			if err := restoreIndex(indexDir, saved); err != nil {
				return nil, nil, 0, err
			}
			// A copy gives every file a new identity, so its first open
			// reads all of them to check their checksums, as for a
			// restored backup. A user's store is past that: one untimed
			// search opens the copy first.
			if _, err := b.r.run(ctx, b.rp.dir, nil, nil, b.bin, "search", "--no-index", "--json", "-k", "1", "func"); err != nil {
				return nil, nil, 0, fmt.Errorf("open the restored index: %w", err)
			}
		}
		s, p, err := b.index(ctx, "feature")
		if err != nil {
			return nil, nil, 0, err
		}
		br = s
		runs = append(runs, p.Elapsed.Seconds())
		rss = max(rss, p.MaxRSS)
	}
	return br, runs, rss, nil
}

// median returns the middle value of xs (the mean of the two middle ones
// for an even count); xs is not modified.
func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// measureSize measures queries, git grep and the vector scan on rev.
func (b *bench) measureSize(ctx context.Context, label, rev string) (SizeReport, error) {
	s := SizeReport{Label: label, Rev: rev, Warm: map[string]Latency{}, Cold: map[string]Latency{}, WarmHits: map[string]int{}}
	repo, err := gitindex.OpenRepo(b.rp.dir)
	if err != nil {
		return s, err
	}
	st, err := indexer.StatusOf(repo, rev, embed.Default().ID())
	if err != nil {
		return s, fmt.Errorf("status of %s: %w", rev, err)
	}
	if !st.Indexed {
		return s, fmt.Errorf("%s is not fully indexed (%d blobs pending)", rev, st.Pending)
	}
	s.Files, s.Chunks = st.Files, st.Chunks
	for _, mode := range modes {
		b.logf("%s: %s queries, warm and cold", label, mode)
		if s.Warm[mode], s.WarmHits[mode], err = warmLatency(ctx, repo, rev, mode, queries[mode], b.cfg.Reps); err != nil {
			return s, err
		}
		if s.Cold[mode], err = coldLatency(ctx, b.r, b.bin, b.rp.dir, rev, mode, queries[mode], b.cfg.ColdReps); err != nil {
			return s, err
		}
	}
	b.logf("%s: git grep and text search, same keywords", label)
	if s.Grep, err = grepLatency(ctx, b.r, b.rp.dir, rev, grepKeywords, b.cfg.ColdReps); err != nil {
		return s, err
	}
	if s.GrepText, err = coldLatency(ctx, b.r, b.bin, b.rp.dir, rev, "text", grepKeywords, b.cfg.ColdReps); err != nil {
		return s, err
	}
	s.GrepRatio = s.GrepText.P50ms / s.Grep.P50ms
	s.HybridGrep = s.Warm["hybrid"].P50ms / s.Grep.P50ms
	b.logf("%s: exact search against git grep", label)
	if s.Exact, err = b.exactLatency(ctx, rev, max(1, b.cfg.ColdReps/3)); err != nil {
		return s, err
	}
	b.logf("%s: vector scan bandwidth", label)
	if s.Scan, err = measureScan(repo.IndexDir); err != nil {
		return s, err
	}
	return s, nil
}

// scaleUp grows a branch with modified copies of the corpus until its index
// holds cfg.ScaleChunks chunks or the time budget runs out, then measures it.
func (b *bench) scaleUp(ctx context.Context) (SizeReport, error) {
	const rev = "scale"
	if _, err := b.r.git(ctx, b.rp.dir, "switch", "-q", "-c", rev); err != nil {
		return SizeReport{}, err
	}
	chunks := b.rep.Sizes[0].Chunks
	start := time.Now()
	var last time.Duration
	for k := 1; chunks < b.cfg.ScaleChunks; k++ {
		if time.Since(start)+last > b.cfg.ScaleBudget {
			b.rep.Notes = append(b.rep.Notes, fmt.Sprintf("scale-up stopped at %d chunks (target %d): the next copy would pass the %s budget", chunks, b.cfg.ScaleChunks, b.cfg.ScaleBudget))
			break
		}
		t := time.Now()
		if err := b.rp.addCopy(ctx, k); err != nil {
			return SizeReport{}, fmt.Errorf("scale-up copy %d: %w", k, err)
		}
		sum, _, err := b.index(ctx, rev)
		if err != nil {
			return SizeReport{}, err
		}
		chunks += sum.Chunks
		last = time.Since(t)
		b.logf("scale-up: copy %d: +%d chunks (%d total) in %.0f s", k, sum.Chunks, chunks, last.Seconds())
	}
	return b.measureSize(ctx, "scaled", rev)
}

func dirSize(dir string) int64 {
	var n int64
	filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if fi, err := d.Info(); err == nil {
				n += fi.Size()
			}
		}
		return nil
	})
	return n
}

func clip(b []byte) string {
	if len(b) > 200 {
		return string(b[:200]) + "…"
	}
	return string(b)
}
