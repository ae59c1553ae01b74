package embed

import (
	"context"
	_ "embed"
	"fmt"
	"sync"
)

// BuiltinID is the ID of the built-in trained model.
const BuiltinID = "bcindex-code-v2"

// builtinModel is the trained table, written by `go run ./cmd/bcindex-train
// all` (see cmd/bcindex-train): int8 rows with per-row scales.
//
//go:embed model/bcindex-code-v2.bin
var builtinModel []byte

var (
	builtinOnce sync.Once
	builtin     *Static
	builtinErr  error
)

// Builtin returns the built-in trained model, parsed once on first use.
func Builtin() (*Static, error) {
	builtinOnce.Do(func() {
		builtin, builtinErr = LoadStatic(builtinModel)
		if builtinErr == nil && builtin.ID() != BuiltinID {
			builtinErr = fmt.Errorf("built-in model has ID %q, want %q", builtin.ID(), BuiltinID)
		}
	})
	return builtin, builtinErr
}

// Default returns the built-in offline embedder: the trained model, or, if
// the binary was built with a model file whose header is damaged (a build
// defect the tests catch), the hash embedder, whose different ID keeps
// vectors apart; damaged tables make Embed fail.
//
// The model's ID and dimension come from its header, read at once; its
// tables (the vocabulary map and row scales, ~10 ms to parse) load in the
// background from this call on, and the first Embed waits for them. A
// command thus resolves its revision and opens its view while the model
// loads, instead of before.
func Default() Embedder {
	hdr, _, err := readStaticHeader(builtinModel)
	if err != nil || hdr.ID != BuiltinID {
		return Hash{}
	}
	go Builtin()
	return builtinLazy{hdr: hdr}
}

// builtinLazy is the built-in model before (and after) its tables load.
type builtinLazy struct{ hdr StaticHeader }

func (b builtinLazy) ID() string { return b.hdr.ID }

func (b builtinLazy) Dim() int { return b.hdr.Dim }

func (b builtinLazy) Embed(ctx context.Context, texts []string, role Role) ([][]float32, error) {
	m, err := Builtin()
	if err != nil {
		return nil, fmt.Errorf("embed: %w", err)
	}
	return m.Embed(ctx, texts, role)
}

// ByID returns the built-in embedder with the given ID, for reading vectors
// stored under a model that is not the current default.
func ByID(id string) (Embedder, error) {
	switch id {
	case BuiltinID:
		m, err := Builtin()
		if err != nil {
			return nil, fmt.Errorf("embed: %w", err)
		}
		return m, nil
	case HashID:
		return Hash{}, nil
	}
	return nil, fmt.Errorf("embed: no built-in embedder %q", id)
}
