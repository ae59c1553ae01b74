package search

import (
	"context"
	"fmt"
	"testing"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/indexer"
)

// BenchmarkFusionGrid measures the fused MRR@10 of the GOROOT quality
// corpus (docs kept and stripped) for a grid of reciprocal-rank-fusion
// settings, one sub-benchmark each, as metrics: the alternative to the
// score-aware fusion the hybrid uses (TestSuiteTune tunes that).
//
//	go test ./search -run XXX -bench FusionGrid -benchtime 1x
func BenchmarkFusionGrid(b *testing.B) {
	for _, strip := range []bool{false, true} {
		r, docQ, _ := buildQualityRepo(b, strip)
		repo, err := gitindex.OpenRepo(r.Dir)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := indexer.NewIndexer(repo, indexer.Options{Embedder: embed.Default()}).Index(context.Background(), []string{"HEAD"}, 0); err != nil {
			b.Fatal(err)
		}
		for _, k := range []float64{10, 30} {
			for _, wv := range []float64{1.5, 2} {
				for _, g := range []float64{0, 0.2, 0.4} {
					for _, floor := range []float64{0, 0.4, 0.6} {
						if g == 0 && floor > 0 {
							continue
						}
						name := fmt.Sprintf("strip=%v/k=%v/vector=%v/confidence=%v/floor=%v", strip, k, wv, g, floor)
						b.Run(name, func(b *testing.B) {
							f := defaultFusion()
							f.convex = false
							f.k, f.textConfidence, f.coverageFloor = k, g, floor
							f.weights = map[string]float64{ModeSymbol: 1, ModeText: 0.5, ModeVector: wv}
							var s armScore
							for i := 0; i < b.N; i++ {
								s = evaluateOpts(b, repo, docQ, Options{Mode: ModeHybrid, ranking: &f})
							}
							b.ReportMetric(s.MRR10, "mrr@10")
							b.ReportMetric(s.Recall1, "recall@1")
						})
					}
				}
			}
		}
	}
}
