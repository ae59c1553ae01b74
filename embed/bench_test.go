package embed

import (
	"context"
	"strings"
	"testing"
)

// benchChunk is a typical function chunk (~60 lines, ~300 sub-tokens).
var benchChunk = strings.Repeat(`	// readHeader reads one HTTP header line from the buffered reader.
	line, err := r.ReadSlice('\n')
	if err != nil {
		return nil, fmt.Errorf("read header %q: %w", name, err)
	}
	key, value, ok := bytes.Cut(line, []byte(":"))
	if !ok { return nil, errMalformedHeader }
	h.Set(strings.TrimSpace(string(key)), strings.TrimSpace(string(value)))
`, 6)

func benchmarkEmbed(b *testing.B, e Embedder) {
	texts := make([]string, 64)
	for i := range texts {
		texts[i] = benchChunk
	}
	ctx := context.Background()
	b.SetBytes(int64(len(benchChunk) * len(texts)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := e.Embed(ctx, texts, RoleDocument); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*len(texts))/b.Elapsed().Seconds(), "chunks/s")
}

// BenchmarkDefault measures the built-in model on one core: run with -cpu 1.
func BenchmarkDefault(b *testing.B) { benchmarkEmbed(b, Default()) }

func BenchmarkHash(b *testing.B) { benchmarkEmbed(b, NewHash()) }

func BenchmarkTokens(b *testing.B) {
	b.SetBytes(int64(len(benchChunk)))
	for i := 0; i < b.N; i++ {
		Tokens(benchChunk)
	}
}
