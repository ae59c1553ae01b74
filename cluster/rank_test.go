package cluster

import (
	"testing"

	"github.com/bcindex/bcindex/chunk"
	userq "github.com/bcindex/bcindex/query"
	"github.com/bcindex/bcindex/search"
)

// TestRankPlacedAsLocal: the cluster orders its candidates with the
// ranking local search runs (search.FuseLists), over only those the
// filters placed: a candidate no file of the filters holds is left out
// and takes no part in the arms' normalisation, and a test ranks below
// the code it tests.
func TestRankPlacedAsLocal(t *testing.T) {
	q, err := userq.Parse("retry the request with backoff")
	if err != nil {
		t.Fatal(err)
	}
	cands := []ranked{{id: "a", terms: 0.75}, {id: "b", terms: 1}, {id: "c", terms: 0.5}, {id: "d", terms: 0.5}}
	lists := []search.ArmList{
		{Mode: search.ModeText, Keys: []int{1, 0, 2, 3}, Scores: []float64{12, 9, 9, 8.9}},
		{Mode: search.ModeVector, Keys: []int{0, 2, 1, 3}, Scores: []float64{0.8, 0.8, 0.7, 0.79}},
	}
	hit := func(path, name string) Hit {
		var h Hit
		h.Path, h.Name, h.Kind, h.Language = path, name, chunk.KindFunction, "go"
		return h
	}
	// b is outside the filters: unplaced.
	placed := map[int]Hit{0: hit("net/client.go", "retryRequest"), 2: hit("net/client_test.go", "TestRetryRequest"), 3: hit("net/clock.go", "sleepFor")}
	got := rankPlaced(&q, cands, lists, placed)
	if len(got) != 3 {
		t.Fatalf("%d hits; want the 3 placed: %+v", len(got), got)
	}
	kept := []search.ArmList{
		{Mode: search.ModeText, Keys: []int{0, 2, 3}, Scores: []float64{9, 9, 8.9}, Terms: 0.75},
		{Mode: search.ModeVector, Keys: []int{0, 2, 3}, Scores: []float64{0.8, 0.8, 0.79}},
	}
	info := []search.Candidate{{Name: "retryRequest", Kind: chunk.KindFunction, Path: "net/client.go", Language: "go"}, {},
		{Name: "TestRetryRequest", Kind: chunk.KindFunction, Path: "net/client_test.go", Language: "go"},
		{Name: "sleepFor", Kind: chunk.KindFunction, Path: "net/clock.go", Language: "go"}}
	want := search.FuseLists(&q, kept, info)
	for i, w := range want {
		if got[i].Path != placed[w.Key].Path || got[i].Score != search.RoundScore(w.Score) {
			t.Errorf("hit %d: %s %v; local ranking %s %v", i, got[i].Path, got[i].Score, placed[w.Key].Path, w.Score)
		}
	}
	if got[0].Path != "net/client.go" || got[2].Path != "net/client_test.go" {
		t.Errorf("order %s, %s, %s: want the code first and its test last", got[0].Path, got[1].Path, got[2].Path)
	}
}
