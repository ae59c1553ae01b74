package cluster

import (
	"testing"

	"github.com/bcindex/bcindex/chunk/vocab"
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
	cands := []ranked{{id: "a", coverage: 0.3, terms: 0.75}, {id: "b", coverage: 0.5, terms: 1}, {id: "c", coverage: 0.2, terms: 0.5}, {id: "d", coverage: 0.2, terms: 0.5}}
	lists := []search.ArmList{
		{Mode: search.ModeText, Keys: []int{1, 0, 2, 3}, Scores: []float64{12, 9, 9, 8.9}},
		{Mode: search.ModeVector, Keys: []int{0, 2, 1, 3}, Scores: []float64{0.8, 0.8, 0.7, 0.79}},
	}
	hit := func(path, name string) Hit {
		var h Hit
		h.Path, h.Name, h.Kind, h.Language = path, name, vocab.KindFunction, "go"
		return h
	}
	// b is outside the filters: unplaced.
	placed := map[int]Hit{0: hit("net/client.go", "retryRequest"), 2: hit("net/client_test.go", "TestRetryRequest"), 3: hit("net/clock.go", "sleepFor")}
	got := rankPlaced(&q, cands, lists, placed)
	if len(got) != 3 {
		t.Fatalf("%d hits; want the 3 placed: %+v", len(got), got)
	}
	kept := []search.ArmList{
		{Mode: search.ModeText, Keys: []int{0, 2, 3}, Scores: []float64{9, 9, 8.9}, Coverage: 0.3, Terms: 0.75},
		{Mode: search.ModeVector, Keys: []int{0, 2, 3}, Scores: []float64{0.8, 0.8, 0.79}},
	}
	info := []search.Candidate{{Name: "retryRequest", Kind: vocab.KindFunction, Path: "net/client.go", Language: "go"}, {},
		{Name: "TestRetryRequest", Kind: vocab.KindFunction, Path: "net/client_test.go", Language: "go"},
		{Name: "sleepFor", Kind: vocab.KindFunction, Path: "net/clock.go", Language: "go"}}
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

// TestTermCoverage: a chunk's tokens described as local search's text arm
// describes its top row, each term at tf/(tf+k1) of its most.
func TestTermCoverage(t *testing.T) {
	cov, share := termCoverage([]string{"retry", "backoff"}, "retry retry request send")
	if want := (2 / 3.2) / 2; cov < want-1e-9 || cov > want+1e-9 || share != 0.5 {
		t.Errorf("coverage %v, share %v; want %v, 0.5", cov, share, want)
	}
	if cov, share := termCoverage(nil, "retry"); cov != 0 || share != 0 {
		t.Errorf("no terms: %v, %v", cov, share)
	}
}
