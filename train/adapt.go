package train

import (
	"context"
	"fmt"
	"hash/fnv"
	"math/rand/v2"

	"github.com/bcindex/bcindex/embed"
)

// AdaptPairs turns a repository's evaluation sets into adaptation pairs.
// With measure, half of the documented functions (chosen by a hash of the
// query, so the split does not depend on file order) are kept out of the
// pairs and returned as held-out sets, on which a base and an adapted model
// can be compared without the adaptation having seen their queries; the
// documents of a held-out set are still every chunk of the repository.
func AdaptPairs(sets []EvalSet, measure bool) (pairs []Pair, held []EvalSet) {
	for _, s := range sets {
		h := s
		h.Queries, h.Targets = nil, nil
		for i, q := range s.Queries {
			f := fnv.New32a()
			f.Write([]byte(q))
			if measure && f.Sum32()%2 == 1 {
				h.Queries, h.Targets = append(h.Queries, q), append(h.Targets, s.Targets[i])
				continue
			}
			pairs = append(pairs, Pair{Lang: s.Lang, Src: s.Name, Query: q, Code: s.Docs[s.Targets[i]]})
		}
		if measure {
			held = append(held, h)
		}
	}
	return pairs, held
}

// Adapt continues training base on pairs and returns the encoded model.
func Adapt(ctx context.Context, cfg Config, base *embed.Static, pairs []Pair, id string) ([]byte, error) {
	hdr := base.Header()
	vocab, tables := base.Tables()
	index := make(map[string]int32, len(vocab))
	for i, t := range vocab {
		index[t] = int32(i)
	}
	nv, rows, D := len(vocab), len(vocab)+hdr.Buckets, hdr.Dim
	toSide := func(t embed.StaticTable) side {
		s := side{table: newParam(rows * D), weight: newParam(rows)}
		copy(s.weight.w, t.Weight)
		for r, row := range t.Rows {
			copy(s.table.w[r*D:], row)
		}
		return s
	}
	code := toSide(tables[0])
	query := code
	if len(tables) > 1 {
		query = toSide(tables[1])
	}
	qs := make([]sparse, len(pairs))
	cs := make([]sparse, len(pairs))
	for i, p := range pairs {
		qs[i] = toSparse(embed.Tokens(p.Query), hdr.MaxTokens, index, nv, hdr.Buckets)
		cs[i] = toSparse(embed.Tokens(p.Code), hdr.MaxTokens, index, nv, hdr.Buckets)
	}
	c := cfg
	c.ID, c.Dim, c.Buckets, c.MaxTokens, c.Separate = id, D, hdr.Buckets, hdr.MaxTokens, len(tables) > 1
	c.LR, c.LRWeight, c.Epochs = cfg.AdaptLR, cfg.AdaptLR, cfg.AdaptEpochs
	c.Batch = min(cfg.Batch, len(pairs))
	tr := &trainer{cfg: c, rows: rows, D: D}
	rng := rand.New(rand.NewPCG(c.Seed, 0x61646170))
	step := 0
	for epoch := 0; epoch < c.Epochs; epoch++ {
		order := rng.Perm(len(pairs))
		for b := 0; b+c.Batch <= len(order); b += c.Batch {
			if err := ctx.Err(); err != nil {
				return nil, fmt.Errorf("adapt: %w", err)
			}
			step++
			tr.step(query, code, qs, cs, order[b:b+c.Batch], step)
		}
	}
	return encodeModel(c, vocab, query, code, rows)
}
