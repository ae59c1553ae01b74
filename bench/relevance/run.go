package relevance

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"sort"
	"time"

	"github.com/bcindex/bcindex/embed"
)

// Config of a suite run.
type Config struct {
	Suite    string // the suite directory
	ReposDir string // see OpenOptions
	Work     string // see OpenOptions; "" for a temporary directory, removed after
	Reindex  bool
	// Modes asked (default Modes); Repos, when set, limits the run to
	// these repositories.
	Modes []string
	Repos []string
	// LatencyReps times each hybrid query this many times (the median
	// counts, as semble's benchmark does); 0: 1.
	LatencyReps int
	// PerQuery keeps every query's ranks and top hits in the report: for
	// a suite one tunes on, never for a held-out one.
	PerQuery bool
	// Reference holds another system's figures per repository (semble's
	// results JSON), reported beside the hybrid on the same repositories.
	Reference string
	// Subsets are named groups of repositories reported apart (e.g. those
	// a model was trained on).
	Subsets map[string][]string
	// Embedder is the model searched with (nil: the built-in one), e.g.
	// a candidate read from its file by embed.LoadStatic.
	Embedder embed.Embedder
	Log      io.Writer // progress; nil: none
}

// Run evaluates a suite: every repository that can be built, every query
// in every mode.
func Run(ctx context.Context, cfg Config) (*Report, error) {
	suite, err := LoadSuite(cfg.Suite)
	if err != nil {
		return nil, err
	}
	modes := cfg.Modes
	if len(modes) == 0 {
		modes = Modes
	}
	for _, m := range modes {
		if !slices.Contains(Modes, m) {
			return nil, fmt.Errorf("unknown mode %q: use %v", m, Modes)
		}
	}
	var ref map[string]Reference
	if cfg.Reference != "" {
		if ref, err = LoadReference(cfg.Reference); err != nil {
			return nil, err
		}
	}
	work := cfg.Work
	if work == "" {
		if work, err = os.MkdirTemp("", "bcindex-suite-"); err != nil {
			return nil, err
		}
		defer os.RemoveAll(work)
	}
	emb := cfg.Embedder
	if emb == nil {
		emb = embed.Default()
	}
	rep := &Report{Suite: cfg.Suite, Model: emb.ID(), Modes: modes, Started: time.Now().UTC(), NoAnnotations: suite.NoAnnotations}
	for _, sr := range suite.Repos {
		if len(cfg.Repos) > 0 && !slices.Contains(cfg.Repos, sr.Name) {
			continue
		}
		rr, err := runRepo(ctx, sr, cfg, modes, emb)
		if errors.Is(err, ErrNoRevision) {
			rep.Skipped = append(rep.Skipped, Skipped{Name: sr.Name, Reason: err.Error()})
			logf(cfg.Log, "%s: skipped: %v\n", sr.Name, err)
			continue
		}
		if err != nil {
			return nil, err
		}
		if r, ok := ref[sr.Name]; ok {
			rr.Reference = &r
		}
		rep.Repos = append(rep.Repos, *rr)
		logf(cfg.Log, "%-20s %-11s %6d chunks  index %6.0f ms  p50 %5.2f ms  hybrid NDCG@10 %.3f\n",
			rr.Name, rr.Language, rr.Chunks, rr.IndexMs, rr.P50ms, rr.Modes[ModeHybrid].NDCG10)
	}
	if len(rep.Repos) == 0 {
		return nil, fmt.Errorf("no repository of %s could be evaluated", cfg.Suite)
	}
	rep.aggregate(cfg.Subsets)
	rep.Elapsed = time.Since(rep.Started).Round(time.Second).String()
	return rep, nil
}

func logf(w io.Writer, format string, a ...any) {
	if w != nil {
		fmt.Fprintf(w, format, a...)
	}
}

// runRepo builds, indexes and asks one repository.
func runRepo(ctx context.Context, sr SuiteRepo, cfg Config, modes []string, emb embed.Embedder) (*RepoReport, error) {
	r, err := Open(ctx, sr.Spec, OpenOptions{ReposDir: cfg.ReposDir, Work: cfg.Work, Reindex: cfg.Reindex, Embedder: cfg.Embedder})
	if err != nil {
		return nil, err
	}
	defer r.Close()
	rr := &RepoReport{Name: sr.Name, Language: sr.Language, Chunks: r.Chunks, IndexMs: ms(r.IndexTime), Queries: len(sr.Tasks)}
	scores := map[string][]QueryScore{}
	var lat []time.Duration
	for _, t := range sr.Tasks {
		present := presentTargets(t, r.Spans)
		var qr *QueryReport
		if cfg.PerQuery {
			qr = &QueryReport{Query: t.Query, Category: t.Category, Targets: t.All(), Present: present, Modes: map[string]QueryResult{}}
		}
		for _, m := range modes {
			hits, d, err := timed(ctx, r, t.Query, m, cfg.LatencyReps)
			if err != nil {
				return nil, err
			}
			if m == ModeHybrid {
				lat = append(lat, d)
			}
			spans := make([]Span, len(hits))
			for i, h := range hits {
				spans[i] = h.Span
			}
			s := scoreTask(t, spans, present)
			scores[m] = append(scores[m], s)
			if qr != nil {
				qr.Modes[m] = QueryResult{NDCG10: s.NDCG10, Ranks: s.Ranks, Top: spans}
			}
		}
		if qr != nil {
			rr.PerQuery = append(rr.PerQuery, *qr)
		}
	}
	rr.Modes, rr.ByCategory = map[string]Metrics{}, map[string]map[string]Metrics{}
	for _, m := range modes {
		rr.Modes[m] = mean(scores[m])
		byCat := map[string][]QueryScore{}
		for i, t := range sr.Tasks {
			byCat[t.Category] = append(byCat[t.Category], scores[m][i])
		}
		for c, ss := range byCat {
			if rr.ByCategory[c] == nil {
				rr.ByCategory[c] = map[string]Metrics{}
			}
			rr.ByCategory[c][m] = mean(ss)
		}
	}
	rr.P50ms = ms(median(lat))
	return rr, nil
}

// timed runs a search, reps times when it is the hybrid's, and returns the
// hits of the last run and the median time.
func timed(ctx context.Context, r *Repo, q, mode string, reps int) ([]Hit, time.Duration, error) {
	if mode != ModeHybrid || reps < 1 {
		reps = 1
	}
	var hits []Hit
	var ds []time.Duration
	for range reps {
		start := time.Now()
		var err error
		if hits, err = r.Search(ctx, q, mode, 10); err != nil {
			return nil, 0, err
		}
		ds = append(ds, time.Since(start))
	}
	return hits, median(ds), nil
}

func median(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// mean averages query scores into metrics.
func mean(ss []QueryScore) Metrics {
	m := Metrics{Queries: len(ss)}
	if len(ss) == 0 {
		return m
	}
	for _, s := range ss {
		m.NDCG10 += s.NDCG10
		m.NDCG5 += s.NDCG5
		m.Hit1 += b2f(s.FileHit1)
		m.Hit3 += b2f(s.FileHit3)
	}
	n := float64(len(ss))
	m.NDCG10, m.NDCG5, m.Hit1, m.Hit3 = m.NDCG10/n, m.NDCG5/n, m.Hit1/n, m.Hit3/n
	return m
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
