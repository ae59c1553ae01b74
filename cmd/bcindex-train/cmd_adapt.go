package main

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/train"
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
	units, err := mineSource(ctx, src, o.repo, nil)
	if err != nil {
		return err
	}
	pairs, held := train.AdaptPairs(train.BuildEvalSets(src.Name, units), o.measure)
	if len(pairs) < 16 {
		return fmt.Errorf("adapt: only %d documented functions in %s", len(pairs), o.repo)
	}
	// The ID names the base model and the repository, so that vectors of
	// the adapted model are never mixed with the base model's.
	f := fnv.New32a()
	f.Write([]byte(filepath.Clean(o.repo)))
	id := fmt.Sprintf("%s+repo-%08x", base.ID(), f.Sum32())
	data, err := train.Adapt(ctx, o.cfg, base, pairs, id)
	if err != nil {
		return err
	}
	adapted, err := embed.LoadStatic(data)
	if err != nil {
		return err
	}
	if o.measure {
		for _, m := range []embed.Embedder{base, adapted} {
			res, err := train.Evaluate(ctx, held, m, 0)
			if err != nil {
				return err
			}
			train.PrintResults(os.Stdout, fmt.Sprintf("%s on the held-out half (%d adaptation pairs)", m.ID(), len(pairs)), res)
		}
	}
	if err := os.WriteFile(o.out, data, 0o644); err != nil {
		return fmt.Errorf("adapt: %w", err)
	}
	logf("wrote %s (%s)", o.out, id)
	return nil
}
