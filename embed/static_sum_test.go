package embed

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// referenceEmbed is the built-in model's vector computed the plain way:
// every sub-token's row sorted, runs of equal rows added once with their
// count's weight, in ascending row order.
func referenceEmbed(m *Static, text string) []float32 {
	t := &m.tables[0]
	toks := Tokens(text)
	if m.hdr.MaxTokens > 0 && len(toks) > m.hdr.MaxTokens {
		toks = toks[:m.hdr.MaxTokens]
	}
	var rows []int32
	for _, tok := range toks {
		rows = append(rows, int32(m.Row(tok)))
	}
	slices.Sort(rows)
	v := make([]float32, m.hdr.Dim)
	for j := 0; j < len(rows); {
		k := j + 1
		for k < len(rows) && rows[k] == rows[j] {
			k++
		}
		m.addRow(t, v, int(rows[j]), TFWeight(k-j))
		j = k
	}
	normalize(v)
	return v
}

// TestStaticSumsDistinctRows checks that Embed, which counts each text's
// rows and sorts only the distinct ones, gives the plain sum's vectors bit
// for bit: on real Go sources, on texts whose tokens repeat more than the
// weight table holds, past the token limit, and on empty text, in one call
// (the counts are reused from text to text).
func TestStaticSumsDistinctRows(t *testing.T) {
	m, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	texts := []string{"", "x", strings.Repeat("retry ", 100), strings.Repeat("parseHTTPRequest readConfig ", 400), benchChunk}
	paths, _ := filepath.Glob(filepath.Join(runtime.GOROOT(), "src", "strings", "*.go"))
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for len(b) > 0 {
			n := min(len(b), 1500)
			texts = append(texts, string(b[:n]))
			b = b[n:]
		}
	}
	got, err := m.Embed(context.Background(), texts, RoleDocument)
	if err != nil {
		t.Fatal(err)
	}
	for i, text := range texts {
		want := referenceEmbed(m, text)
		for d := range want {
			if math.Float32bits(got[i][d]) != math.Float32bits(want[d]) {
				t.Fatalf("text %d (%q…): dimension %d is %v, the plain sum %v", i, text[:min(len(text), 30)], d, got[i][d], want[d])
			}
		}
	}
	if len(texts) < 20 {
		t.Fatalf("only %d texts", len(texts))
	}
}
