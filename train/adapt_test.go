package train

import (
	"context"
	"fmt"
	"testing"

	"github.com/bcindex/bcindex/embed"
)

func TestAdaptModel(t *testing.T) {
	base, err := embed.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	cfg := DefaultConfig()
	cfg.AdaptEpochs = 1
	var pairs []Pair
	for i := 0; i < 32; i++ {
		pairs = append(pairs, Pair{
			Query: fmt.Sprintf("frobnicate widget number %d", i),
			Code:  fmt.Sprintf("func Frob%d(w *Widget) error { return w.frob(%d) }", i, i),
		})
	}
	id := AdaptedID(embed.BuiltinID, "0123456789abcdef")
	data, err := Adapt(context.Background(), cfg, base, pairs, id)
	if err != nil {
		t.Fatal(err)
	}
	m, err := embed.LoadStatic(data)
	if err != nil {
		t.Fatal(err)
	}
	if m.ID() != id || m.Dim() != base.Dim() {
		t.Fatalf("adapted model %q dim %d", m.ID(), m.Dim())
	}

	// Kept in the index, it is served for its base model only: once the
	// built-in model changes, the adaptation of the earlier one is unused.
	dir := t.TempDir()
	if err := SaveAdapted(dir, data); err != nil {
		t.Fatal(err)
	}
	if got, err := LoadAdapted(dir, embed.BuiltinID); err != nil || got == nil || got.ID() != id {
		t.Fatalf("LoadAdapted for its base: %v, %v", got, err)
	}
	if got, err := LoadAdapted(dir, "bcindex-code-v0"); err != nil || got != nil {
		t.Fatalf("LoadAdapted for another base model = %v, %v; want nil, nil", got, err)
	}
}
