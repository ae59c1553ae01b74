package embed

import (
	"context"
	"errors"
	"math"
	"sync"
	"testing"
)

// testEmbedder is the conformance suite every Embedder in this package runs.
func testEmbedder(t *testing.T, e Embedder) {
	t.Helper()
	ctx := context.Background()
	texts := []string{
		"func ParseRequest(r io.Reader) (*Request, error) { return nil, nil }",
		"parse an http request",
		"def read_config(path):\n    with open(path) as f:\n        return json.load(f)",
		"",
		"   \t\n",
	}
	if e.ID() == "" || e.Dim() <= 0 {
		t.Fatalf("ID %q, Dim %d", e.ID(), e.Dim())
	}
	for _, role := range []Role{RoleDocument, RoleQuery} {
		vs, err := e.Embed(ctx, texts, role)
		if err != nil {
			t.Fatalf("Embed(%v): %v", role, err)
		}
		if len(vs) != len(texts) {
			t.Fatalf("Embed returned %d vectors for %d texts", len(vs), len(texts))
		}
		for i, v := range vs {
			if len(v) != e.Dim() {
				t.Fatalf("vector %d has dim %d, want %d", i, len(v), e.Dim())
			}
			n := norm(v)
			empty := i >= 3
			if empty && n != 0 {
				t.Errorf("%v: empty text %d has norm %v, want 0", role, i, n)
			}
			if !empty && math.Abs(n-1) > 1e-4 {
				t.Errorf("%v: text %d has norm %v, want 1", role, i, n)
			}
		}
		// Deterministic, and independent of batch composition.
		one, err := e.Embed(ctx, texts[1:2], role)
		if err != nil {
			t.Fatal(err)
		}
		for j := range one[0] {
			if one[0][j] != vs[1][j] {
				t.Fatalf("%v: vector differs between batches at %d", role, j)
			}
		}
	}

	// Safe for concurrent use.
	want, _ := e.Embed(ctx, texts, RoleDocument)
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got, err := e.Embed(ctx, texts, RoleDocument)
			if err != nil {
				t.Error(err)
				return
			}
			for i := range got {
				for j := range got[i] {
					if got[i][j] != want[i][j] {
						t.Errorf("concurrent Embed differs at %d/%d", i, j)
						return
					}
				}
			}
		}()
	}
	wg.Wait()

	// Context-aware.
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := e.Embed(cctx, texts, RoleDocument); !errors.Is(err, context.Canceled) {
		t.Errorf("Embed with cancelled context: err = %v, want context.Canceled", err)
	}
}

func norm(v []float32) float64 {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	return math.Sqrt(s)
}

func cosine(a, b []float32) float64 {
	var s float64
	for i := range a {
		s += float64(a[i]) * float64(b[i])
	}
	return s
}

func TestHash(t *testing.T) { testEmbedder(t, NewHash()) }

func TestDefault(t *testing.T) { testEmbedder(t, Default()) }

func TestRoleString(t *testing.T) {
	if RoleQuery.String() != "query" || RoleDocument.String() != "document" {
		t.Fatal(RoleQuery.String(), RoleDocument.String())
	}
}
