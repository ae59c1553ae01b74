package search

import (
	"context"
	"reflect"
	"testing"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/internal/testkit/gittest"
	"github.com/bcindex/bcindex/store"
)

// TestRankingBuilderMatchesNewRanking: the ranking of a history's listings
// added one at a time is the ranking of the listings given at once, over
// files added, changed, deleted and changed back.
func TestRankingBuilderMatchesNewRanking(t *testing.T) {
	r := gittest.New(t)
	repo := openRepo(t, r.Dir)
	var revs []string
	step := func(msg string, files map[string]string) {
		revs = append(revs, r.Commit(msg, files))
		run(t, repo, Options{Query: "retry"})
	}
	step("one", map[string]string{"net/retry.go": gittest.RetryGo, "cfg/config.py": gittest.ConfigPy,
		"old/wait.go": "package old\n\n// WaitBackoff sleeps before the next retry.\nfunc WaitBackoff() {}\n"})
	r.Remove("old/wait.go")
	step("two", map[string]string{"net/retry.go": gittest.RetryGo + "\n// Backoff doubles the wait between retries.\nfunc Backoff(d int) int { return 2 * d }\n",
		"net/copy/retry.go": gittest.RetryGo})
	r.Remove("cfg/config.py")
	step("three", map[string]string{"p/p.go": undocumented})
	step("four", map[string]string{"net/retry.go": gittest.RetryGo, "cfg/config.py": gittest.ConfigPy})
	var ls []*gitindex.Listing
	var tip gitindex.Commit
	for _, rev := range revs {
		c, err := repo.Resolve(rev)
		if err != nil {
			t.Fatal(err)
		}
		l, err := repo.CachedListing(c.Tree)
		if err != nil {
			t.Fatalf("listing of %s: %v", rev, err)
		}
		ls, tip = append(ls, l), c
	}
	snap, err := store.OpenSnapshot(repo.IndexDir, embed.Default().ID())
	if err != nil {
		t.Fatal(err)
	}
	defer snap.Close()
	for _, q := range []string{"retry with backoff", "parse the configuration", "Backoff", "nothing-matches-this"} {
		for _, mode := range []string{ModeHybrid, ModeText, ModeVector, ModeSymbol} {
			opts := Options{Query: q, Mode: mode, Embedder: embed.Default()}
			if err := ParseQuery(&opts); err != nil {
				t.Fatal(err)
			}
			if err := CheckOptions(&opts); err != nil {
				t.Fatal(err)
			}
			want, err := NewRanking(repo, tip, snap, ls, &opts).Rank(context.Background(), &opts)
			if err != nil {
				t.Fatal(err)
			}
			b := NewRankingBuilder(repo, tip, snap, &opts)
			for _, l := range ls {
				b.Add(l)
			}
			got, err := b.Ranking().Rank(context.Background(), &opts)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%q in %s: built one listing at a time %+v, at once %+v", q, mode, got, want)
			}
			if q == "retry with backoff" && mode == ModeHybrid && len(got) == 0 {
				t.Errorf("%q ranks nothing", q)
			}
		}
	}
}
