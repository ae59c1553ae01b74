package search

import (
	"context"
	"strings"
	"testing"

	"github.com/bcindex/bcindex/query"
)

// TestRerankModelLoads checks the shipped model against this build's
// features: a feature added or reordered without retraining fails here.
func TestRerankModelLoads(t *testing.T) {
	m, err := builtinRerank()
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Trees) == 0 {
		t.Error("the shipped model has no trees: was it written by TestRerankTrain?")
	}
	fm, err := builtinFilesRerank()
	if err != nil {
		t.Fatal(err)
	}
	if len(fm.Trees) == 0 {
		t.Error("the shipped files model has no trees: was it written by TestRerankTrain?")
	}
}

func TestParseRerankRejects(t *testing.T) {
	for name, in := range map[string]string{
		"not json":       `{`,
		"other features": `{"features":["text"],"mean":[0],"scale":[1],"weights":[1]}`,
		"no features":    `{"features":[],"mean":[],"scale":[],"weights":[]}`,
		"short weights":  `{"features":["base","base_rr"],"mean":[0,0],"scale":[1,1],"weights":[1]}`,
		"tree past them": `{"features":["base"],"mean":[0],"scale":[1],"weights":[1],"trees":[[{"f":1,"t":0.5,"l":1,"r":2},{"f":-1},{"f":-1}]]}`,
		"looping tree":   strings.Replace(string(rerankModelJSON), `"trees": [`, `"trees": [[{"f":0,"t":0.5,"l":0,"r":0}],`, 1),
	} {
		if _, err := parseRerank([]byte(in)); err == nil {
			t.Errorf("%s: parsed", name)
		} else if !strings.Contains(err.Error(), "rerank model") {
			t.Errorf("%s: error %q does not name the model", name, err)
		}
	}
}

// A model may read the first of the build's features only (the chunks'
// model reads none of the file's); the others do not count.
func TestParseRerankPrefix(t *testing.T) {
	m, err := parseRerank([]byte(`{"features":["base","base_rr"],"mean":[0,0],"scale":[1,1],"weights":[2,3],"trees":[[{"f":1,"t":0.5,"l":1,"r":2},{"f":-1,"v":1},{"f":-1,"v":10}]]}`))
	if err != nil {
		t.Fatal(err)
	}
	var x [nFeatures]float64
	x[0], x[1], x[nFeatures-1] = 1, 1, 100
	if got := m.score(&x); got != 2+3+10 {
		t.Errorf("score = %v, want 15", got)
	}
}

// BenchmarkRerank measures the second stage alone (features and the
// model) over a real query's pool on the benchmark corpus.
func BenchmarkRerank(b *testing.B) {
	repo, emb := indexedBenchCorpus(b)
	b.Run("pool", func(b *testing.B) {
		f := defaultFusion()
		pooled := 0
		f.collect = func(v *view, raw string, arms []arm, first []fused, pool []rerankCand) {
			pq, _ := query.Parse(raw)
			pooled = len(pool)
			saved := v.fusion
			v.fusion.collect = nil
			b.ResetTimer()
			for range b.N {
				v.rerank(&pq, arms, first)
			}
			b.StopTimer()
			v.fusion = saved
		}
		if _, err := SearchIndexed(context.Background(), repo, Options{Query: "parse the http request header", Embedder: emb, ranking: &f}); err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(pooled), "cands/op")
	})
}
