package search

import (
	"context"
	"os"
	"testing"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/gitindex"
)

// TestTuneFusion prints the fused MRR for a grid of fusion settings on the
// quality corpus. Run with BCINDEX_TUNE=1; it asserts nothing and is only a
// tool for choosing the defaults in fuse.go.
func TestTuneFusion(t *testing.T) {
	if os.Getenv("BCINDEX_TUNE") == "" {
		t.Skip("set BCINDEX_TUNE=1 to run the fusion grid")
	}
	saved := fusion
	defer func() { fusion = saved }()
	for _, strip := range []bool{false, true} {
		r, docQ, _ := buildQualityRepo(t, strip)
		repo, _ := gitindex.OpenRepo(r.Dir)
		if _, err := gitindex.NewIndexer(repo, gitindex.Options{Embedder: embed.Default()}).Index(context.Background(), []string{"HEAD"}, 0); err != nil {
			t.Fatal(err)
		}
		for _, k := range []float64{10, 30, 60} {
			for _, wv := range []float64{1, 1.5, 2, 3} {
				for _, wt := range []float64{0.5, 1} {
					fusion.k = k
					fusion.weights = map[string]float64{ModeSymbol: 1, ModeText: wt, ModeVector: wv}
					s := evaluate(t, repo, docQ, ModeHybrid)
					t.Logf("strip=%v k=%v text=%v vector=%v: mrr@10 %.3f recall@1 %.3f", strip, k, wt, wv, s.MRR10, s.Recall1)
				}
			}
		}
	}
}
