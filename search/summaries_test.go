package search

import (
	"context"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/internal/testkit/gittest"
	"github.com/bcindex/bcindex/store"
	"github.com/bcindex/bcindex/store/storewrite"
)

// undocumented holds functions whose code says nothing of what they are
// for: only a summary can tie them to a question in words.
const undocumented = `package p

func wq(n int, f func() error) error {
	var err error
	d := 1
	for i := 0; i < n; i++ {
		if err = f(); err == nil {
			return nil
		}
		d *= 2
	}
	return err
}

func zz(a, b string) bool { return len(a) == len(b) }

func uploadAttempt(xs []int) int {
	s := 0
	for _, x := range xs {
		s += x
	}
	return s
}
`

// hashOf returns the content hash of the chunk named name.
func hashOf(t *testing.T, repo *gitindex.Repo, name string) [16]byte {
	t.Helper()
	res := run(t, repo, Options{Query: name, Mode: ModeSymbol, NoSummaries: true})
	if len(res.Hits) == 0 || res.Hits[0].Name != name {
		t.Fatalf("no chunk named %s: %+v", name, res.Hits)
	}
	b, err := hex.DecodeString(res.Hits[0].ContentHash)
	if err != nil || len(b) != 16 {
		t.Fatalf("content hash of %s: %q", name, res.Hits[0].ContentHash)
	}
	return [16]byte(b)
}

// writeSummaries writes the summary index with summaries of the named
// chunks, embedded by the built-in model.
func writeSummaries(t *testing.T, repo *gitindex.Repo, sums map[string]string) {
	t.Helper()
	emb := embed.Default()
	var es []store.SummaryEntry
	for name, text := range sums {
		g := store.GeneratedSummary{Summary: text, Model: "stand-in", Prompt: 1, Generated: true}
		vecs, err := emb.Embed(context.Background(), []string{g.Text()}, embed.RoleDocument)
		if err != nil {
			t.Fatal(err)
		}
		es = append(es, store.SummaryEntry{Hash: hashOf(t, repo, name), Summary: g, Vector: vecs[0]})
	}
	h := store.SummaryIndexHeader{Model: "stand-in", Prompt: 1, Embed: emb.ID(), Dim: emb.Dim()}
	if err := storewrite.WriteSummaryIndex(repo.IndexDir, h, es); err != nil {
		t.Fatal(err)
	}
}

func rankOf(res *Result, name string) int {
	for i, h := range res.Hits {
		if h.Name == name {
			return i
		}
	}
	return -1
}

func TestSummariesJoinTheRanking(t *testing.T) {
	r := gittest.New(t)
	r.Commit("init", map[string]string{"p/p.go": undocumented, "net/retry.go": gittest.RetryGo})
	repo := openRepo(t, r.Dir)
	const q = "call a flaky operation again with a growing pause"
	writeSummaries(t, repo, map[string]string{
		"wq": "Calls a flaky operation again with a growing pause between tries, until it succeeds or the tries run out.",
		// A summary stuffed with another function's name must not outrank it.
		"zz": "uploadAttempt uploadAttempt: compares lengths for an uploadAttempt upload attempt.",
	})

	for _, mode := range []string{ModeText, ModeVector, ModeHybrid} {
		with := run(t, repo, Options{Query: q, Mode: mode})
		if rankOf(with, "wq") != 0 {
			t.Errorf("%s with summaries: wq at rank %d, want 0: %+v", mode, rankOf(with, "wq"), names(with))
		}
		without := run(t, repo, Options{Query: q, Mode: mode, NoSummaries: true})
		if rankOf(without, "wq") == 0 {
			t.Errorf("%s without summaries: wq ranks first anyway, so the test shows nothing", mode)
		}
		for _, h := range without.Hits {
			if h.GeneratedSummary != nil {
				t.Errorf("%s: NoSummaries hit %s shows a summary", mode, h.Name)
			}
		}
	}
	res := run(t, repo, Options{Query: q})
	g := res.Hits[rankOf(res, "wq")].GeneratedSummary
	if g == nil || !g.Generated || g.Model != "stand-in" || !strings.HasPrefix(g.Summary, "Calls a flaky") {
		t.Errorf("wq's hit carries summary %+v", g)
	}
	if res.Hits[rankOf(res, "wq")].Doc != "" {
		t.Errorf("the generated summary leaked into the author's doc")
	}
	for _, mode := range []string{ModeHybrid, ModeText} {
		name := run(t, repo, Options{Query: "uploadAttempt", Mode: mode})
		if rankOf(name, "uploadAttempt") != 0 {
			t.Errorf("%s: a summary naming uploadAttempt outranked the function itself: %v", mode, names(name))
		}
	}
}

func TestDamagedSummaryIndexIsLeftOut(t *testing.T) {
	r := gittest.New(t)
	r.Commit("init", map[string]string{"p/p.go": undocumented})
	repo := openRepo(t, r.Dir)
	writeSummaries(t, repo, map[string]string{"wq": "Calls a flaky operation again with a growing pause."})
	p := filepath.Join(repo.IndexDir, store.SummaryIndexFile)
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)/2] ^= 1
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	res := run(t, repo, Options{Query: "flaky operation pause"})
	if len(res.Damaged) != 1 || !strings.Contains(res.Damaged[0], store.SummaryIndexFile) {
		t.Errorf("damaged = %q, want the summary index named", res.Damaged)
	}
	for _, h := range res.Hits {
		if h.GeneratedSummary != nil {
			t.Errorf("hit %s shows a summary from a damaged index", h.Name)
		}
	}
}

func names(res *Result) []string {
	var out []string
	for _, h := range res.Hits {
		out = append(out, h.Name)
	}
	return out
}
