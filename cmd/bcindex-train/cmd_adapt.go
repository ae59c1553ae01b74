package main

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"os"
	"path/filepath"

	"github.com/bcindex/bcindex/embed"
)

// adapt fine-tunes a trained model on one repository's own (doc first
// sentence, code) pairs: same vocabulary, same objective, a few epochs at a
// small learning rate. With -measure, half of the repository's documented
// functions (chosen by a hash of the query) are used for adaptation and the
// other half are the queries on which base and adapted models are compared.

func loadModel(path string) (*embed.Static, error) {
	if path == "" {
		return embed.Builtin()
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("load model: %w", err)
	}
	return embed.LoadStatic(data)
}

func runAdapt(ctx context.Context, o options) error {
	if o.repo == "" {
		return errors.New("adapt: -repo DIR is required")
	}
	base, err := loadModel(o.model)
	if err != nil {
		return err
	}
	src := source{Kind: "dir", Name: filepath.Base(filepath.Clean(o.repo)), Version: "local", Split: "eval"}
	units, err := mineSource(ctx, src, o.repo)
	if err != nil {
		return err
	}
	var pairs []pair
	var held []evalSet
	for _, s := range buildEvalSets(src, units) {
		h := s
		h.Queries, h.Targets = nil, nil
		for i, q := range s.Queries {
			f := fnv.New32a()
			f.Write([]byte(q))
			if o.measure && f.Sum32()%2 == 1 {
				h.Queries, h.Targets = append(h.Queries, q), append(h.Targets, s.Targets[i])
				continue
			}
			pairs = append(pairs, pair{Lang: s.Lang, Src: s.Name, Query: q, Code: s.Docs[s.Targets[i]]})
		}
		held = append(held, h)
	}
	if len(pairs) < 16 {
		return fmt.Errorf("adapt: only %d documented functions in %s", len(pairs), o.repo)
	}
	// The ID names the base model and the repository, so that vectors of
	// the adapted model are never mixed with the base model's.
	f := fnv.New32a()
	f.Write([]byte(filepath.Clean(o.repo)))
	id := fmt.Sprintf("%s+repo-%08x", base.ID(), f.Sum32())
	data, err := adaptModel(ctx, o.cfg, base, pairs, id)
	if err != nil {
		return err
	}
	adapted, err := embed.LoadStatic(data)
	if err != nil {
		return err
	}
	if o.measure {
		for _, m := range []embed.Embedder{base, adapted} {
			res, err := evaluate(ctx, held, m, 0)
			if err != nil {
				return err
			}
			printResults(os.Stdout, fmt.Sprintf("%s on the held-out half (%d adaptation pairs)", m.ID(), len(pairs)), res)
		}
	}
	if err := os.WriteFile(o.out, data, 0o644); err != nil {
		return fmt.Errorf("adapt: %w", err)
	}
	logf("wrote %s (%s)", o.out, id)
	return nil
}

// adaptModel continues training base on pairs and returns the encoded model.
func adaptModel(ctx context.Context, cfg trainConfig, base *embed.Static, pairs []pair, id string) ([]byte, error) {
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
	c.id, c.dim, c.buckets, c.maxTokens, c.separate = id, D, hdr.Buckets, hdr.MaxTokens, len(tables) > 1
	c.lr, c.lrWeight, c.epochs = cfg.adaptLR, cfg.adaptLR, cfg.adaptEpochs
	c.batch = min(cfg.batch, len(pairs))
	tr := &trainer{cfg: c, rows: rows, D: D}
	rng := rand.New(rand.NewPCG(c.seed, 0x61646170))
	step := 0
	for epoch := 0; epoch < c.epochs; epoch++ {
		order := rng.Perm(len(pairs))
		for b := 0; b+c.batch <= len(order); b += c.batch {
			if err := ctx.Err(); err != nil {
				return nil, fmt.Errorf("adapt: %w", err)
			}
			step++
			tr.step(query, code, qs, cs, order[b:b+c.batch], step)
		}
	}
	return encodeModel(c, vocab, query, code, rows)
}
