package train

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"sort"
	"sync"
	"time"

	"github.com/bcindex/bcindex/chunk"
	"github.com/bcindex/bcindex/embed"
)

// sparse is a tokenised text: distinct rows and their damped counts.
type sparse struct {
	rows []int32
	tf   []float32
}

// toSparse maps tokens to rows the way embed.Static.Row does.
func toSparse(toks []string, maxTokens int, vocab map[string]int32, nv, buckets int) sparse {
	if len(toks) > maxTokens {
		toks = toks[:maxTokens]
	}
	counts := map[int32]int{}
	for _, t := range toks {
		r, ok := vocab[t]
		if !ok {
			r = int32(nv + int(embed.BucketHash(t)%uint64(buckets)))
		}
		counts[r]++
	}
	s := sparse{rows: make([]int32, 0, len(counts)), tf: make([]float32, 0, len(counts))}
	for r := range counts {
		s.rows = append(s.rows, r)
	}
	sort.Slice(s.rows, func(a, b int) bool { return s.rows[a] < s.rows[b] })
	for _, r := range s.rows {
		s.tf = append(s.tf, embed.TFWeight(counts[r]))
	}
	return s
}

// buildVocab keeps the sub-tokens in at least minDF texts, most frequent first.
func buildVocab(texts [][]string, size, minDF int) ([]string, map[string]int) {
	df := map[string]int{}
	seen := map[string]bool{}
	for _, toks := range texts {
		clear(seen)
		for _, t := range toks {
			if !seen[t] {
				seen[t] = true
				df[t]++
			}
		}
	}
	var vocab []string
	for t, n := range df {
		if n >= minDF {
			vocab = append(vocab, t)
		}
	}
	sort.Slice(vocab, func(a, b int) bool {
		if df[vocab[a]] != df[vocab[b]] {
			return df[vocab[a]] > df[vocab[b]]
		}
		return vocab[a] < vocab[b]
	})
	if len(vocab) > size {
		vocab = vocab[:size]
	}
	return vocab, df
}

// param is a dense parameter with lazy (sparse) Adam state.
type param struct {
	w, m, v []float32
}

func newParam(n int) *param {
	return &param{w: make([]float32, n), m: make([]float32, n), v: make([]float32, n)}
}

const (
	beta1 = 0.9
	beta2 = 0.999
	eps   = 1e-8
)

// adam updates w[off:off+len(g)] with gradient g at step t.
func (p *param) adam(off int, g []float32, lr float64, t int) {
	c1 := 1 - math.Pow(beta1, float64(t))
	c2 := 1 - math.Pow(beta2, float64(t))
	step := float32(lr * math.Sqrt(c2) / c1)
	w, m, v := p.w[off:off+len(g)], p.m[off:off+len(g)], p.v[off:off+len(g)]
	for i, gi := range g {
		m[i] = beta1*m[i] + (1-beta1)*gi
		v[i] = beta2*v[i] + (1-beta2)*gi*gi
		w[i] -= step * m[i] / (float32(math.Sqrt(float64(v[i]))) + eps)
	}
}

// side is one encoder: a table and per-row weights.
type side struct {
	table, weight *param
}

// Train trains a model on pairs and returns the encoded model file; with
// evals, it reports the held-out evaluation after the last (or every) epoch.
func Train(ctx context.Context, cfg Config, pairs []Pair, evals []EvalSet, maxQ int) ([]byte, error) {
	start := time.Now()
	mix, err := ParseMix(cfg.Mix)
	if err != nil {
		return nil, fmt.Errorf("train: %w", err)
	}
	switch cfg.BatchBy {
	case "", "lang", "src":
	default:
		return nil, fmt.Errorf("train: -batchby %q: want lang, src or nothing", cfg.BatchBy)
	}
	mined := len(pairs)
	pairs = Mix(pairs, mix, cfg.LangTemp, cfg.MaxPairs, cfg.Seed)
	cfg.logf("train: chose %d pairs from %d (mix %s, language temperature %g)", len(pairs), mined, cfg.Mix, cfg.LangTemp)
	if len(pairs) < cfg.Batch {
		return nil, fmt.Errorf("train: %d pairs, fewer than one batch of %d", len(pairs), cfg.Batch)
	}
	qt := make([][]string, len(pairs))
	ct := make([][]string, len(pairs))
	all := make([][]string, 0, 2*len(pairs))
	for i, p := range pairs {
		qt[i] = embed.Tokens(p.Query)
		ct[i] = embed.Tokens(p.Code)
		if len(ct[i]) > cfg.MaxTokens {
			ct[i] = ct[i][:cfg.MaxTokens]
		}
		all = append(all, qt[i], ct[i])
	}
	vocab, df := buildVocab(all, cfg.Vocab, cfg.MinDF)
	index := make(map[string]int32, len(vocab))
	for i, t := range vocab {
		index[t] = int32(i)
	}
	nv, rows, D := len(vocab), len(vocab)+cfg.Buckets, cfg.Dim
	qs := make([]sparse, len(pairs))
	cs := make([]sparse, len(pairs))
	for i := range pairs {
		qs[i] = toSparse(qt[i], cfg.MaxTokens, index, nv, cfg.Buckets)
		cs[i] = toSparse(ct[i], cfg.MaxTokens, index, nv, cfg.Buckets)
	}
	cfg.logf("train: %d pairs, vocab %d (+%d buckets), dim %d, prepared in %v", len(pairs), nv, cfg.Buckets, D, time.Since(start).Round(time.Millisecond))

	// Weights start at IDF; the table at small random values.
	n := float64(len(all))
	idf := make([]float32, rows)
	for i, t := range vocab {
		idf[i] = float32(math.Log(n / float64(df[t])))
	}
	for r := nv; r < rows; r++ {
		idf[r] = float32(math.Log(n / float64(cfg.MinDF)))
	}
	rng := rand.New(rand.NewPCG(cfg.Seed, 0x62636964))
	newSide := func() side {
		s := side{table: newParam(rows * D), weight: newParam(rows)}
		for i := range s.table.w {
			s.table.w[i] = float32(rng.NormFloat64() * 0.1)
		}
		copy(s.weight.w, idf)
		return s
	}
	code := newSide()
	query := code
	if cfg.Separate {
		query = newSide()
		copy(query.table.w, code.table.w)
	}

	tr := &trainer{cfg: cfg, rows: rows, D: D}
	if cfg.HardNegatives {
		tr.neg = hardNegatives(pairs, qs, cs, idf)
		n := 0
		for _, k := range tr.neg {
			if k >= 0 {
				n++
			}
		}
		cfg.logf("train: hard negatives for %d of %d pairs (%v)", n, len(pairs), time.Since(start).Round(time.Millisecond))
	}
	step := 0
	for epoch := 1; epoch <= cfg.Epochs; epoch++ {
		var loss float64
		nb := 0
		for _, idx := range batches(pairs, rng.Perm(len(pairs)), cfg.Batch, cfg.BatchBy, rng) {
			if err := ctx.Err(); err != nil {
				return nil, fmt.Errorf("train: %w", err)
			}
			step++
			loss += tr.step(query, code, qs, cs, idx, step)
			nb++
			if nb%200 == 0 {
				cfg.logf("epoch %d batch %d loss %.4f (%v)", epoch, nb, loss/float64(nb), time.Since(start).Round(time.Second))
			}
		}
		cfg.logf("epoch %d: loss %.4f, %v", epoch, loss/float64(max(nb, 1)), time.Since(start).Round(time.Second))
		if len(evals) > 0 && (epoch == cfg.Epochs || cfg.EvalEvery) {
			data, err := encodeModel(cfg, vocab, query, code, rows)
			if err != nil {
				return nil, err
			}
			m, err := embed.LoadStatic(data)
			if err != nil {
				return nil, err
			}
			res, err := Evaluate(ctx, evals, m, maxQ)
			if err != nil {
				return nil, err
			}
			PrintResults(os.Stderr, fmt.Sprintf("epoch %d", epoch), res)
		}
	}
	return encodeModel(cfg, vocab, query, code, rows)
}

func encodeModel(cfg Config, vocab []string, query, code side, rows int) ([]byte, error) {
	toTable := func(s side) embed.StaticTable {
		t := embed.StaticTable{Weight: make([]float32, rows), Rows: make([][]float32, rows)}
		for r := 0; r < rows; r++ {
			t.Weight[r] = max(s.weight.w[r], 0)
			t.Rows[r] = s.table.w[r*cfg.Dim : (r+1)*cfg.Dim]
		}
		return t
	}
	tables := []embed.StaticTable{toTable(code)}
	if cfg.Separate {
		tables = append(tables, toTable(query))
	}
	hdr := embed.StaticHeader{
		ID: cfg.ID, Dim: cfg.Dim, Buckets: cfg.Buckets, MaxTokens: cfg.MaxTokens,
		Notes: fmt.Sprintf("bcindex-train: in-batch contrastive, batch %d, temp %g, epochs %d, lr %g/%g, separate %v, dropout %g, vocab %d, mindf %d, seed %d, hard negatives %v, pairs %d, mix %s, language temperature %g, batches by %q; pairs mined with chunk.Version %d",
			cfg.Batch, cfg.Temp, cfg.Epochs, cfg.LR, cfg.LRWeight, cfg.Separate, cfg.Dropout, cfg.Vocab, cfg.MinDF, cfg.Seed, cfg.HardNegatives, cfg.MaxPairs, cfg.Mix, cfg.LangTemp, cfg.BatchBy, chunk.Version),
	}
	var buf bytes.Buffer
	if err := embed.EncodeStatic(&buf, hdr, vocab, tables); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// trainer runs the optimisation steps.
type trainer struct {
	cfg     Config
	rows, D int
	neg     []int // per pair, the pair whose code is its hard negative, or -1; nil: none
}

// parallel runs f(i) for i in [0, n) on cfg.Workers goroutines.
func (tr *trainer) parallel(n int, f func(lo, hi int)) {
	w := max(tr.cfg.Workers, 1)
	var wg sync.WaitGroup
	for g := 0; g < w; g++ {
		lo, hi := g*n/w, (g+1)*n/w
		wg.Add(1)
		go func() {
			defer wg.Done()
			f(lo, hi)
		}()
	}
	wg.Wait()
}
