package search

import (
	"cmp"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/store"
	"github.com/bcindex/bcindex/vector"
)

// suiteQuestions returns the questions of the quality suites
// (testdata/questions), the queries of real people's kind.
func suiteQuestions(t *testing.T) []string {
	files, err := filepath.Glob(filepath.Join("testdata", "questions", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no question files: %v", err)
	}
	var out []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Questions []struct {
				Question string `json:"question"`
			} `json:"questions"`
		}
		if err := json.Unmarshal(b, &doc); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, q := range doc.Questions {
			out = append(out, q.Question)
		}
	}
	return out
}

// segHit is a vector hit of one segment of a snapshot.
type segHit struct {
	seg, row int
	score    float32
}

// vectorTop is the vector arm's k best rows of the snapshot (every row of
// each segment), each segment searched with SearchDepth at depth (0:
// exactly; -1: the depth Search keeps).
func vectorTop(t *testing.T, snap *store.Snapshot, q []float32, k, depth int) []segHit {
	var all []segHit
	for s, seg := range snap.Segments {
		if seg.Vec == nil {
			continue
		}
		d := depth
		if d < 0 {
			d = vector.Depth(k)
		}
		hits, err := seg.Vec.SearchDepth(q, k, d, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range hits {
			all = append(all, segHit{s, h.Row, h.Score})
		}
	}
	slices.SortFunc(all, func(a, b segHit) int {
		if c := cmp.Compare(b.score, a.score); c != 0 {
			return c
		}
		if c := cmp.Compare(a.seg, b.seg); c != 0 {
			return c
		}
		return cmp.Compare(a.row, b.row)
	})
	return all[:min(k, len(all))]
}

// overlap counts the hits of got among want's first n.
func overlap(got, want []segHit, n int) int {
	in := map[[2]int]bool{}
	for _, h := range want[:min(n, len(want))] {
		in[[2]int{h.seg, h.row}] = true
	}
	c := 0
	for _, h := range got[:min(n, len(got))] {
		if in[[2]int{h.seg, h.row}] {
			c++
		}
	}
	return c
}

// TestVectorRecallRepo measures the vector arm's prefiltered top 10 and
// top 200 against the exact scan's on a repository indexed already
// (BCINDEX_BENCH_REPO; skipped without), for every question of the
// quality suites, at several depths (logged), and fails when Search's own
// depth recalls less than 0.999 of either.
func TestVectorRecallRepo(t *testing.T) {
	dir := os.Getenv("BCINDEX_BENCH_REPO")
	if dir == "" {
		t.Skip("BCINDEX_BENCH_REPO names an indexed repository to query")
	}
	ctx := context.Background()
	repo, err := gitindex.OpenRepo(dir)
	if err != nil {
		t.Fatal(err)
	}
	emb := embed.Default()
	p, err := NewPlan(repo, Options{Mode: ModeVector, Embedder: emb})
	if err != nil {
		t.Fatal(err)
	}
	v, err := store.Open(ctx, repo, p.Want, emb.ID())
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	for _, seg := range v.Snap.Segments {
		if seg.Vec != nil {
			t.Logf("segment %s: %d rows, %d stored vectors", seg.ID, seg.Vec.Len(), seg.Vec.Stored())
		}
	}
	queries := suiteQuestions(t)
	vecs, err := emb.Embed(ctx, queries, embed.RoleQuery)
	if err != nil {
		t.Fatal(err)
	}
	exact := make([][]segHit, len(vecs))
	for i, q := range vecs {
		exact[i] = vectorTop(t, v.Snap, q, 200, 0)
	}
	for _, depth := range []int{8000, -1, 16000} {
		var at10, at200, n10, n200, missed int
		for i, q := range vecs {
			got := vectorTop(t, v.Snap, q, 200, depth)
			at10 += overlap(got, exact[i], 10)
			at200 += overlap(got, exact[i], 200)
			n10 += min(10, len(exact[i]))
			n200 += len(exact[i])
			if overlap(got, exact[i], 200) < len(exact[i]) {
				missed++
			}
		}
		r10, r200 := float64(at10)/float64(max(1, n10)), float64(at200)/float64(max(1, n200))
		t.Logf("depth %d: recall@10 %.5f, recall@200 %.5f over %d queries (%d with a top-200 row missed)", depth, r10, r200, len(vecs), missed)
		if depth < 0 && (r10 < 0.999 || r200 < 0.999) {
			t.Errorf("Search's depth: recall@10 %.5f, recall@200 %.5f; want 0.999 or more", r10, r200)
		}
	}
}
