package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/bcindex/bcindex/train"
)

func runTrain(ctx context.Context, o options) error {
	var pairs []train.Pair
	if err := readGob(filepath.Join(o.cache, "train.gob"), &pairs); err != nil {
		return err
	}
	var evals []train.EvalSet
	if o.cfg.EvalEvery {
		if err := readGob(filepath.Join(o.cache, "eval.gob"), &evals); err != nil {
			return err
		}
	}
	cfg := o.cfg
	cfg.Logf = logf
	data, err := train.Train(ctx, cfg, pairs, evals, o.maxQ)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(o.out), 0o755); err != nil {
		return fmt.Errorf("train: %w", err)
	}
	if err := os.WriteFile(o.out+".tmp", data, 0o644); err != nil {
		return fmt.Errorf("train: %w", err)
	}
	logf("wrote %s (%d bytes)", o.out, len(data))
	return os.Rename(o.out+".tmp", o.out)
}
