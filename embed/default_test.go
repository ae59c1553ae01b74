package embed

import (
	"context"
	"strings"
	"testing"
)

func TestBuiltin(t *testing.T) {
	m, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	if Default().ID() != BuiltinID || m.Dim() != 256 {
		t.Fatalf("Default is %q dim %d, want %q dim 256", Default().ID(), m.Dim(), BuiltinID)
	}
	if len(builtinModel) > 16<<20 {
		t.Errorf("built-in model is %d bytes, over 16 MiB", len(builtinModel))
	}
	for _, id := range []string{BuiltinID, HashID} {
		e, err := ByID(id)
		if err != nil || e.ID() != id {
			t.Errorf("ByID(%q) = %v, %v", id, e, err)
		}
	}
	if _, err := ByID("nope"); err == nil {
		t.Error("ByID(nope) succeeded")
	}
}

// TestDefaultLoadsLazily: Default answers ID and Dim from the model's
// header and embeds exactly as the loaded model does, warmed or not.
func TestDefaultLoadsLazily(t *testing.T) {
	d := Default()
	Warm(d)
	Warm(Hash{}) // not the built-in model: nothing to load
	m, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	if d.ID() != m.ID() || d.Dim() != m.Dim() {
		t.Fatalf("Default: %s/%d, loaded model %s/%d", d.ID(), d.Dim(), m.ID(), m.Dim())
	}
	texts := []string{"func retryWithBackoff(ctx context.Context) error", "parse the tree listing"}
	for _, role := range []Role{RoleQuery, RoleDocument} {
		a, err := d.Embed(context.Background(), texts, role)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := m.Embed(context.Background(), texts, role)
		for i := range a {
			for j := range a[i] {
				if a[i][j] != b[i][j] {
					t.Fatalf("role %v text %d: Default's vector differs at %d", role, i, j)
				}
			}
		}
	}
}

// TestBuiltinRanks checks that the trained model puts a query nearest to
// the code it describes, with no word of the query in the code's name.
func TestBuiltinRanks(t *testing.T) {
	docs := []string{
		"func Max(a, b int) int {\n\tif a > b {\n\t\treturn a\n\t}\n\treturn b\n}",
		"def load(path):\n    with open(path) as f:\n        return json.load(f)",
		"function debounce(fn, wait) { let t; return (...a) => { clearTimeout(t); t = setTimeout(() => fn(...a), wait); }; }",
		"public static String reverse(String s) { return new StringBuilder(s).reverse().toString(); }",
	}
	queries := []string{
		"return the larger of two integers",
		"parse a json file from disk",
		"delay calling a function until input stops",
		"reverse a string",
	}
	ctx := context.Background()
	e := Default()
	dv, err := e.Embed(ctx, docs, RoleDocument)
	if err != nil {
		t.Fatal(err)
	}
	qv, err := e.Embed(ctx, queries, RoleQuery)
	if err != nil {
		t.Fatal(err)
	}
	for i, q := range qv {
		best := 0
		for j := range dv {
			if cosine(q, dv[j]) > cosine(q, dv[best]) {
				best = j
			}
		}
		if best != i {
			t.Errorf("query %q: nearest is doc %d, want %d", queries[i], best, i)
		}
	}
}

func BenchmarkLoadBuiltin(b *testing.B) {
	for i := 0; i < b.N; i++ {
		if _, err := LoadStatic(builtinModel); err != nil {
			b.Fatal(err)
		}
	}
}

// TestDamagedModelIsAnError: a built-in model whose header cannot be read
// is never replaced by another embedder: Default keeps the model's ID and
// every Embed fails saying the model is damaged and what to do.
func TestDamagedModelIsAnError(t *testing.T) {
	damaged := append([]byte(nil), builtinModel[:64]...)
	for i := range damaged[:16] {
		damaged[i] ^= 0xff
	}
	for _, model := range [][]byte{nil, damaged} {
		e := defaultOf(model)
		if e.ID() != BuiltinID {
			t.Errorf("damaged model: Default is %q, want %q", e.ID(), BuiltinID)
		}
		_, err := e.Embed(context.Background(), []string{"retry with backoff"}, RoleQuery)
		if err == nil || !strings.Contains(err.Error(), "damaged") || !strings.Contains(err.Error(), "reinstall") {
			t.Errorf("damaged model: Embed error %v", err)
		}
	}
}
