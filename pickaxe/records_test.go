package pickaxe

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
)

// withoutRecords is hist as a table without diffs files gives it.
func withoutRecords(hist []Commit) []Commit {
	out := slices.Clone(hist)
	for i := range out {
		out[i].diffs = nil
	}
	return out
}

// TestRecordsAgreeWithBlobs checks that the changes' records give the
// commits and counts that reading the blobs gives, and that they were
// read.
func TestRecordsAgreeWithBlobs(t *testing.T) {
	repo, _, hist := openHistory(t, syntheticRepo(t), "HEAD")
	ctx := context.Background()
	for _, tc := range syntheticCases {
		got, st, err := Search(ctx, repo, hist, tc.opts)
		if err != nil {
			t.Fatal(err)
		}
		want, _, err := Search(ctx, repo, withoutRecords(hist), tc.opts)
		if err != nil {
			t.Fatal(err)
		}
		if g, w := summary(got), summary(want); !slices.Equal(g, w) {
			t.Errorf("%q: records give\n%q\nblobs give\n%q", tc.git, g, w)
		}
		t.Logf("%q: %d records, %d blobs read", tc.git, st.Records, st.BlobsRead)
	}
}

func summary(res []CommitMatch) []string {
	var out []string
	for _, c := range res {
		for _, f := range c.Files {
			out = append(out, fmt.Sprintf("%.7s %s %d>%d %v %v", c.Commit, f.Path, f.OldCount, f.NewCount, f.Removed, f.Added))
		}
	}
	return out
}

// recorded counts the commits of hist whose changes have records.
func recorded(hist []Commit) int {
	n := 0
	for _, c := range hist {
		if c.diffs != nil {
			n++
		}
	}
	return n
}

// TestBuildHistoryRecordsEveryChange checks that a query listing more new
// commits than it diffs with git leaves them without records, that
// BuildHistory then adds records to the table as it is, and that a
// damaged diffs file is set aside: its changes are read from the blobs
// until the next BuildHistory records them again.
func TestBuildHistoryRecordsEveryChange(t *testing.T) {
	defer func(n int) { queryDiffCommits = n }(queryDiffCommits)
	queryDiffCommits = 2
	dir := syntheticRepo(t)
	repo, tip, hist := openHistory(t, dir, "HEAD")
	ctx := context.Background()
	if n := recorded(hist); n != 0 {
		t.Fatalf("a query listing %d new commits recorded %d of them", len(hist), n)
	}
	if err := BuildHistory(ctx, repo, tip.Hash, nil); err != nil {
		t.Fatal(err)
	}
	built, err := History(ctx, repo, tip.Hash, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !sameCommits(built, hist) || recorded(built) != len(hist) {
		t.Fatalf("after BuildHistory %d of %d commits have records", recorded(built), len(built))
	}
	for _, tc := range syntheticCases {
		againstGit(t, repo, built, "HEAD", tc)
	}
	p := diffsPath(segmentPath(repo.IndexDir, tip.Hash))
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)-trailerSize-3] ^= 0xff // in the index
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	damaged, err := History(ctx, repo, tip.Hash, nil)
	if err != nil {
		t.Fatal(err)
	}
	if recorded(damaged) != 0 {
		t.Errorf("a damaged diffs file gave records to %d commits", recorded(damaged))
	}
	if _, err := os.Stat(p); !os.IsNotExist(err) {
		t.Errorf("the damaged diffs file is still there (%v)", err)
	}
	againstGit(t, repo, damaged, "HEAD", sCase("Alpha"))
	if err := BuildHistory(ctx, repo, tip.Hash, nil); err != nil {
		t.Fatal(err)
	}
	if again, err := History(ctx, repo, tip.Hash, nil); err != nil || recorded(again) != len(hist) {
		t.Errorf("BuildHistory recorded %d of %d commits again (%v)", recorded(again), len(hist), err)
	}
}

// TestRecordsFollowDiffSettings checks that -G reads records only when
// they were made with the diff algorithm git log would use now: with
// another one it reads the blobs, and still lists git's commits.
func TestRecordsFollowDiffSettings(t *testing.T) {
	dir := syntheticRepo(t)
	repo, _, hist := openHistory(t, dir, "HEAD")
	ctx := context.Background()
	_, st, err := Search(ctx, repo, hist, gCase("Alpha").opts)
	if err != nil || st.Records == 0 {
		t.Fatalf("-G read %d records (%v)", st.Records, err)
	}
	git(t, dir, "config", "diff.algorithm", "patience")
	_, st, err = Search(ctx, repo, hist, gCase("Alpha").opts)
	if err != nil || st.Records != 0 {
		t.Errorf("with another diff algorithm -G read %d records (%v)", st.Records, err)
	}
	if _, st, err = Search(ctx, repo, hist, sCase("Alpha").opts); err != nil || st.Records == 0 {
		t.Errorf("-S, which no diff alignment changes, read %d records (%v)", st.Records, err)
	}
}

// TestRecordLinesAcrossHunks checks the lines and numbers a record shows
// when a change has several hunks, against reading the blobs.
func TestRecordLinesAcrossHunks(t *testing.T) {
	dir := t.TempDir()
	git(t, dir, "init", "-q", "-b", "main")
	git(t, dir, "config", "user.email", "a@example.com")
	git(t, dir, "config", "user.name", "Ann")
	lines := []string{"one", "two needle", "three", "four", "five", "six", "seven", "eight NEEDLE", "nine", "ten"}
	write := func() {
		if err := os.WriteFile(dir+"/f.txt", []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		git(t, dir, "add", "-A")
		git(t, dir, "commit", "-q", "-m", "c")
	}
	write()
	lines[1], lines[7] = "two needle needle", "eight needle"
	lines = append(lines[:4], append([]string{"four and a half needle"}, lines[4:]...)...)
	write()
	repo, _, hist := openHistory(t, dir, "HEAD")
	ctx := context.Background()
	for _, tc := range []oracleCase{sCase("needle"), sCase("needle", "-i"), gCase("needle"), gCase("n[e]+dle"), gCase("NEEDLE", "-i")} {
		got, st, err := Search(ctx, repo, hist, tc.opts)
		if err != nil || st.Records == 0 {
			t.Fatalf("%q: %d records (%v)", tc.git, st.Records, err)
		}
		want, _, err := Search(ctx, repo, withoutRecords(hist), tc.opts)
		if err != nil {
			t.Fatal(err)
		}
		if g, w := summary(got), summary(want); !slices.Equal(g, w) {
			t.Errorf("%q: records give\n%q\nblobs give\n%q", tc.git, g, w)
		}
		againstGit(t, repo, hist, "HEAD", tc)
	}
}

// TestLinesFollowGitsDiff checks that a change which adds copies of a
// matching line where the blob already held one shows the lines git's
// diff adds, from its records and from its blobs alike: which copies are
// new is the diff's alignment to say, not their count.
func TestLinesFollowGitsDiff(t *testing.T) {
	dir := t.TempDir()
	git(t, dir, "init", "-q", "-b", "main")
	git(t, dir, "config", "user.email", "a@example.com")
	git(t, dir, "config", "user.name", "Ann")
	write := func(lines ...string) {
		if err := os.WriteFile(dir+"/f.c", []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		git(t, dir, "add", "-A")
		git(t, dir, "commit", "-q", "-m", "c")
	}
	// The new blob adds the first two "\t\tadd(sb," and keeps the third,
	// the old blob's one, which a change after it leaves between the
	// lines the blobs start and end with: the last two copies are not
	// the added ones.
	write("start", "if (p)", "\tput(sb,", "middle", "if (q)", "\tput(sb,", "other", "\t\tadd(sb,", "end")
	write("start", "if (p) {", "\t\tadd(sb,", "\telse put(sb,", "}", "middle", "if (q) {", "\t\tadd(sb,",
		"\telse put(sb,", "}", "other", "\t\tadd(sb,", "end", "more")
	repo, _, hist := openHistory(t, dir, "HEAD")
	ctx := context.Background()
	for _, tc := range []oracleCase{sCase("add(sb,"), gCase(`add\(sb`), sCase("sb,"), gCase("put|add")} {
		added, removed := gitDiffLines(t, dir, tc.opts)
		want := fmt.Sprintf("%v %v", removed, added)
		for _, commits := range [][]Commit{hist, withoutRecords(hist)} {
			res, st, err := Search(ctx, repo, commits, tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			if len(res) == 0 || res[0].Commit != hist[len(hist)-1].Hash.String() || len(res[0].Files) != 1 {
				t.Fatalf("%q: %v, want the second commit", tc.git, res)
			}
			f := res[0].Files[0]
			if got := fmt.Sprintf("%v %v", numbers(f.Removed), numbers(f.Added)); got != want {
				t.Errorf("%q with %d records: removed and added lines %s, git's diff %s", tc.git, st.Records, got, want)
			}
		}
	}
	// Asked for the commits alone, -S reads the blobs and runs no diff.
	o := sCase("add(sb,").opts
	o.CommitsOnly = true
	res, st, err := Search(ctx, repo, withoutRecords(hist), o)
	if err != nil || len(res) != 2 || st.GitDiffs != 0 || st.BlobsRead == 0 {
		t.Errorf("-S for the commits alone: %d commits, %d diffs by git, %d blobs read (%v)", len(res), st.GitDiffs, st.BlobsRead, err)
	}
}

// gitDiffLines returns the numbers of the lines git's diff of the last
// commit adds and removes that the pattern of o matches.
func gitDiffLines(t *testing.T, dir string, o Options) (added, removed []int) {
	t.Helper()
	m, err := Compile(o.Pattern)
	if err != nil {
		t.Fatal(err)
	}
	oldN, newN := 0, 0
	for _, l := range strings.Split(git(t, dir, "diff", "-U0", "HEAD~1", "HEAD"), "\n") {
		switch {
		case strings.HasPrefix(l, "@@ "):
			f := strings.Fields(l)
			fmt.Sscanf(strings.TrimPrefix(f[1], "-"), "%d", &oldN)
			fmt.Sscanf(strings.TrimPrefix(f[2], "+"), "%d", &newN)
		case strings.HasPrefix(l, "---") || strings.HasPrefix(l, "+++"):
		case strings.HasPrefix(l, "-"):
			if m.MatchLine([]byte(l[1:] + "\n")) {
				removed = append(removed, oldN)
			}
			oldN++
		case strings.HasPrefix(l, "+"):
			if m.MatchLine([]byte(l[1:] + "\n")) {
				added = append(added, newN)
			}
			newN++
		}
	}
	if len(added)+len(removed) == 0 {
		t.Fatalf("git's diff shows no line matching %q", o.Pattern.Text)
	}
	return added, removed
}

func numbers(ls []Line) []int {
	var out []int
	for _, l := range ls {
		out = append(out, l.Number)
	}
	return out
}
