package main

import (
	"context"
	"flag"
	"fmt"
	"testing"

	"github.com/bcindex/bcindex/embed"
)

func TestAdaptModel(t *testing.T) {
	base, err := embed.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	var cfg trainConfig
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	cfg.flags(fs)
	cfg.adaptEpochs = 1
	var pairs []pair
	for i := 0; i < 32; i++ {
		pairs = append(pairs, pair{
			Query: fmt.Sprintf("frobnicate widget number %d", i),
			Code:  fmt.Sprintf("func Frob%d(w *Widget) error { return w.frob(%d) }", i, i),
		})
	}
	data, err := adaptModel(context.Background(), cfg, base, pairs, "bcindex-code-v1+repo-test")
	if err != nil {
		t.Fatal(err)
	}
	m, err := embed.LoadStatic(data)
	if err != nil {
		t.Fatal(err)
	}
	if m.ID() != "bcindex-code-v1+repo-test" || m.Dim() != base.Dim() {
		t.Fatalf("adapted model %q dim %d", m.ID(), m.Dim())
	}
}
