package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/train"
)

func runEval(ctx context.Context, o options) error {
	var evals []train.EvalSet
	if err := readGob(filepath.Join(o.cache, "eval.gob"), &evals); err != nil {
		return err
	}
	var e embed.Embedder = embed.Default()
	if o.model != "" {
		data, err := os.ReadFile(o.model)
		if err != nil {
			return fmt.Errorf("eval: %w", err)
		}
		m, err := embed.LoadStatic(data)
		if err != nil {
			return err
		}
		e = m
	}
	res, err := train.Evaluate(ctx, evals, e, o.maxQ)
	if err != nil {
		return err
	}
	train.PrintResults(os.Stdout, e.ID(), res)
	if o.hash {
		res, err := train.Evaluate(ctx, evals, embed.NewHash(), o.maxQ)
		if err != nil {
			return err
		}
		train.PrintResults(os.Stdout, embed.HashID, res)
	}
	return nil
}
