package pickaxe

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
)

// syntheticRepo builds a history with the corners of the pickaxe: a
// rename, a deletion, a merge on the first-parent line, binary files, a
// symlink, a mode change, a submodule, a line that only moves, and a
// string that spans lines.
func syntheticRepo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	git(t, dir, "init", "-q", "-b", "main")
	git(t, dir, "config", "user.email", "a@example.com")
	git(t, dir, "config", "user.name", "Ann")
	write := func(name, content string) {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	commit := func(msg string) {
		git(t, dir, "add", "-A")
		git(t, dir, "commit", "-q", "--allow-empty", "-m", msg)
	}
	write("a.go", "package a\n\nfunc Alpha() {}\nfunc Beta() {}\n")
	write("bin/data.bin", "head\x00Alpha\x00tail\n")
	commit("root")
	write("a.go", "package a\n\nfunc Beta() {}\nfunc Alpha() {}\n") // Alpha only moves
	commit("reorder")
	git(t, dir, "mv", "a.go", "b.go")
	commit("rename")
	write("b.go", "package a\n\nfunc Beta() {}\nfunc Alpha() {}\nfunc Gamma() {}\n")
	write("bin/data.bin", "head\x00Alpha Alpha\x00tail\n")
	commit("gamma")
	git(t, dir, "checkout", "-q", "-b", "side")
	write("side.go", "package a\n\n// Delta is on the side branch.\nfunc Delta() {}\n")
	commit("side: delta")
	write("side.go", "package a\n\n// Delta is on the side branch.\nfunc Delta() {}\nfunc Alpha2() {}\n")
	commit("side: alpha2")
	git(t, dir, "checkout", "-q", "main")
	write("c.go", "package a\n\nfunc Epsilon() {\n}\n")
	commit("epsilon")
	git(t, dir, "merge", "-q", "--no-ff", "-m", "merge side", "side")
	git(t, dir, "rm", "-q", "b.go")
	commit("delete b")
	if err := os.Symlink("c.go", filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	git(t, dir, "update-index", "--add", "--cacheinfo", "160000,"+strings.Repeat("ab", 20)+",sub")
	commit("symlink and submodule")
	git(t, dir, "update-index", "--chmod=+x", "c.go")
	commit("mode")
	write("c.go", "package a\n\nfunc Epsilon() {\n\treturn\n}\n")
	commit("epsilon body")
	// git counts '^' once more after a final newline: 3 and 3, no change.
	write("anchors.txt", "a\nb\n")
	commit("anchors")
	write("anchors.txt", "a\nb\nc")
	commit("anchors again")
	return dir
}

var syntheticCases = []oracleCase{
	sCase("Alpha"), sCase("Beta"), sCase("Gamma"), sCase("Delta"), sCase("Alpha2"), sCase("alpha", "-i"),
	sCase("Epsilon() {\n}"), sCase("c.go"), sCase("Subproject"), sCase("abab"), sCase("package a"),
	sCase("Alpha|Gamma", "--pickaxe-regex"), sCase("^func", "--pickaxe-regex"), sCase("^", "--pickaxe-regex"),
	gCase("Alpha"), gCase("Alpha", "--text"), gCase("^func"), gCase("Delta"), gCase("c\\.go"),
	gCase("Subproject"), gCase("return"), gCase("ALPHA", "-i"), gCase("^$"), gCase("[^a-z]Beta"),
}

func TestSyntheticAgainstGit(t *testing.T) {
	repo, _, hist := openHistory(t, syntheticRepo(t), "HEAD")
	for _, tc := range syntheticCases {
		againstGit(t, repo, hist, "HEAD", tc)
		againstGit(t, repo, withoutRecords(hist), "HEAD", tc)
	}
	// The lines shown: those whose copies changed; none of a binary file.
	ctx := context.Background()
	res, _, err := Search(ctx, repo, hist, Options{Pattern: Pattern{Text: "Alpha"}, Oldest: true})
	if err != nil {
		t.Fatal(err)
	}
	var shown []string
	for _, c := range res {
		for _, f := range c.Files {
			shown = append(shown, fmt.Sprintf("%s %d>%d %v %v", f.Path, f.OldCount, f.NewCount, f.Removed, f.Added))
		}
	}
	want := []string{
		"a.go 0>1 [] [{3 func Alpha() {}}]", "bin/data.bin 0>1 [] []", // root
		"a.go 1>0 [{4 func Alpha() {}}] []", "b.go 0>1 [] [{4 func Alpha() {}}]", // rename
		"bin/data.bin 1>2 [] []",                // gamma
		"side.go 0>1 [] [{5 func Alpha2() {}}]", // merge
		"b.go 1>0 [{4 func Alpha() {}}] []",     // delete
	}
	if !slices.Equal(shown, want) {
		t.Errorf("-S Alpha shows\n%s\nwant\n%s", strings.Join(shown, "\n"), strings.Join(want, "\n"))
	}
	// "reorder" only moves the line with Alpha: without records git's
	// diff decides -G; the records are git's diffs.
	if _, st, err := Search(ctx, repo, withoutRecords(hist), gCase("Alpha").opts); err != nil || st.GitDiffs == 0 {
		t.Errorf("-G Alpha asked git's diff %d times (%v), though a matching line only moves", st.GitDiffs, err)
	}
	if _, st, err := Search(ctx, repo, hist, gCase("Alpha").opts); err != nil || st.GitDiffs != 0 || st.Records == 0 {
		t.Errorf("-G Alpha with records asked git's diff %d times, read %d records (%v)", st.GitDiffs, st.Records, err)
	}
}

func commitsOf(res []CommitMatch) []string {
	var out []string
	for _, c := range res {
		out = append(out, c.Commit)
	}
	return out
}

// TestCandidatesSkipPairs checks that a predicate ruling blobs out spares
// their reads and changes no answer.
func TestCandidatesSkipPairs(t *testing.T) {
	repo, _, hist := openHistory(t, syntheticRepo(t), "HEAD")
	hist = withoutRecords(hist)
	ctx := context.Background()
	for _, tc := range []oracleCase{sCase("Delta"), gCase("Gamma")} {
		m, err := Compile(tc.opts.Pattern)
		if err != nil {
			t.Fatal(err)
		}
		// An exact predicate, as a perfect index would give.
		cand := func(h plumbing.Hash) bool {
			b, err := repo.ReadBlob(h)
			return err != nil || m.Count(b) > 0
		}
		all, full, err := Search(ctx, repo, hist, tc.opts)
		if err != nil {
			t.Fatal(err)
		}
		tc.opts.Candidates = cand
		some, narrowed, err := Search(ctx, repo, hist, tc.opts)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(commitsOf(all), commitsOf(some)) || len(all) == 0 {
			t.Errorf("%q: %d commits without candidates, %d with", tc.git, len(all), len(some))
		}
		if narrowed.Skipped == 0 || narrowed.BlobsRead >= full.BlobsRead {
			t.Errorf("%q: candidates skipped %d pairs, read %d blobs of %d", tc.git, narrowed.Skipped, narrowed.BlobsRead, full.BlobsRead)
		}
	}
}
