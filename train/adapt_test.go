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
	data, err := Adapt(context.Background(), cfg, base, pairs, "bcindex-code-v1+repo-test")
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
