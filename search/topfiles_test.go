package search

import (
	"fmt"
	"slices"
	"sort"
	"testing"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/internal/testkit/gittest"
)

// TestTopFilesMatchesSort checks topFiles, which keeps the best n files
// as it reads them, against sorting every scored file, for every n, on
// files of equal and different scores.
func TestTopFilesMatchesSort(t *testing.T) {
	r := gittest.New(t)
	files := map[string]string{}
	for i := 0; i < 12; i++ {
		// Pairs of equal texts at two paths score the same.
		body := fmt.Sprintf("package p\n\n// Retry%d retries the request.\nfunc Retry%d() {}\n", i/2, i/2)
		for k := 0; k < i/2; k++ {
			body += fmt.Sprintf("\n// again%d retries the request once more.\nfunc again%d_%d() {}\n", k, i, k)
		}
		files[fmt.Sprintf("d%d/retry.go", i)] = body
	}
	r.Commit("init", files)
	repo := openRepo(t, r.Dir)
	run(t, repo, Options{Query: "retry"})
	rd := openDefaultView(t, repo)
	opts := Options{Query: "retries the request", Embedder: embed.Default()}
	if err := parseQuery(&opts); err != nil {
		t.Fatal(err)
	}
	v := viewOf(repo, rd.Want.Commits[0], rd, 1, &opts)
	v.textArm(opts.Parsed.Terms)
	v.fileBM25()
	if len(v.fileScore) < 10 {
		t.Fatalf("%d files scored; the test needs more", len(v.fileScore))
	}
	all := slices.Clone(v.fileScore)
	sort.Slice(all, func(i, j int) bool {
		a, b := all[i], all[j]
		if a.score != b.score {
			return a.score > b.score
		}
		if ka, kb := v.rowKey(int(a.seg), int(a.first)), v.rowKey(int(b.seg), int(b.first)); ka != kb {
			return ka < kb
		}
		return a.first < b.first
	})
	ties := 0
	for i := 1; i < len(all); i++ {
		if all[i].score == all[i-1].score {
			ties++
		}
	}
	if ties == 0 {
		t.Fatal("no two files score the same; the test needs ties")
	}
	for n := 1; n <= len(all)+1; n++ {
		var want [][2]int
		for _, f := range all[:min(n, len(all))] {
			r, _ := v.fileBestOf([2]int{int(f.seg), int(f.first)})
			want = append(want, [2]int{int(f.seg), r})
		}
		if got := v.topFiles(nil, n); !slices.Equal(got, want) {
			t.Errorf("n=%d: %v; sorted: %v", n, got, want)
		}
	}
}
