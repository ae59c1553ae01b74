package search

import (
	"cmp"
	"context"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/internal/testkit/gittest"
	"github.com/bcindex/bcindex/store"
)

// TestTextArmThroughFirstCopies: two versions of a file, indexed in one
// run into one segment, share a function that moved down in the newer
// one. Its postings are stored once, under its first copy; a text search
// at either revision finds it in that revision's blob at that revision's
// lines (one of the two visible rows reads its first copy's postings),
// and a search over both revisions shows it once, from the newer.
func TestTextArmThroughFirstCopies(t *testing.T) {
	r := gittest.New(t)
	shared := "// Ocelot keeps the marmot stable.\nfunc Ocelot() string {\n\treturn \"ocelotmarmot quokkastable\"\n}\n"
	other := "package p\n\n// Other stays.\nfunc Other() int { return 2 }\n"
	oldRev := r.CommitAt("2024-01-01T00:00:00Z", "old", map[string]string{"a.go": "package p\n\n" + shared, "b.go": other})
	r.Git("branch", "old")
	newRev := r.CommitAt("2024-02-01T00:00:00Z", "new", map[string]string{
		"a.go": "package p\n\n// Lynx counts.\nfunc Lynx() int {\n\treturn 1\n}\n\n" + shared})
	repo := openRepo(t, r.Dir)
	both := gitindex.RefSelection{Patterns: []string{"old", "main"}}
	run(t, repo, Options{Query: "ocelotmarmot", Mode: ModeText, Refs: both, K: 5}) // indexes both in one run

	rd, _ := openRevs(t, repo, []string{oldRev, newRev})
	defer rd.Close()
	if len(rd.Snap.Segments) != 1 {
		t.Fatalf("%d segments; the test needs both versions in one", len(rd.Snap.Segments))
	}
	seg := rd.Snap.Segments[0]
	var rows []int
	for i := 0; i < seg.Rows(); i++ {
		if seg.Row(i).Name == "Ocelot" {
			rows = append(rows, i)
		}
	}
	if len(rows) != 2 {
		t.Fatalf("Ocelot in %d rows, want one per version", len(rows))
	}
	first, copied := rows[0], rows[1]
	if seg.FirstCopy(copied) != first || seg.FirstCopy(first) != first {
		t.Fatalf("rows %v: first copies %d and %d, want both %d", rows, seg.FirstCopy(first), seg.FirstCopy(copied), first)
	}
	it := seg.Lex.Iter("ocelotmarmot")
	var posted []int
	for it.Next() {
		posted = append(posted, it.Row())
	}
	if len(posted) != 1 || posted[0] != first {
		t.Errorf("ocelotmarmot posted in rows %v, want only the first copy %d", posted, first)
	}
	if a, b := seg.Lex.DocLen(first), seg.Lex.DocLen(copied); a == 0 || a != b {
		t.Errorf("lengths %d and %d, want the copy's its own, equal and not 0", a, b)
	}

	for _, c := range []struct {
		rev       string
		startLine int
	}{{oldRev, 3}, {newRev, 8}} {
		res := run(t, repo, Options{Query: "ocelotmarmot quokkastable", Mode: ModeText, Rev: c.rev, K: 5})
		if len(res.Hits) == 0 || res.Hits[0].Name != "Ocelot" {
			t.Fatalf("at %.7s: hits %v, want Ocelot first", c.rev, names(res))
		}
		h := res.Hits[0]
		if want := r.Git("rev-parse", c.rev+":a.go"); h.Blob != want || h.StartLine != c.startLine {
			t.Errorf("at %.7s: Ocelot from blob %s line %d, want %s line %d", c.rev, h.Blob, h.StartLine, want, c.startLine)
		}
	}
	// One kept view of the revision whose Ocelot is the copy, searched
	// with other rows visible in turn: what the text arm derives from the
	// visible rows is not reused for others.
	copyRev := oldRev
	if seg.BlobSHA(seg.BlobOf(copied)).String() == r.Git("rev-parse", newRev+":a.go") {
		copyRev = newRev
	}
	var plans [2]*Plan
	var err error
	for i, exclude := range [][]string{nil, {"a.go"}} {
		if plans[i], err = NewPlan(repo, Options{Rev: copyRev, Mode: ModeText, Exclude: exclude}); err != nil {
			t.Fatal(err)
		}
	}
	kept, err := store.Open(context.Background(), repo, plans[0].Want, "")
	if err != nil {
		t.Fatal(err)
	}
	defer kept.Close()
	for i := range 4 {
		o := Options{Query: "ocelotmarmot", Rev: copyRev, Mode: ModeText, K: 5}
		if i%2 == 1 {
			o.Exclude = []string{"a.go"}
		}
		res, err := NewSearcher(kept, plans[i%2]).Search(context.Background(), nil, o)
		if err != nil {
			t.Fatal(err)
		}
		if found := len(res.Hits) > 0 && res.Hits[0].Name == "Ocelot"; found != (i%2 == 0) {
			t.Errorf("kept view, search %d (excluding a.go: %v): hits %v", i, i%2 == 1, names(res))
		}
	}

	res := run(t, repo, Options{Query: "ocelotmarmot quokkastable", Mode: ModeText, Refs: both, K: 5})
	n := 0
	for _, h := range res.Hits {
		if h.Name == "Ocelot" {
			n++
			if want := r.Git("rev-parse", newRev+":a.go"); h.Blob != want {
				t.Errorf("over both revisions: Ocelot from blob %s, want the newer %s", h.Blob, want)
			}
		}
	}
	if n != 1 {
		t.Errorf("over both revisions: Ocelot %d times, want once", n)
	}
}

// TestTextArmRenamedCopies: a file renamed with a function body changed
// keeps its file chunk's text (the package clause and the signature), so
// the new file chunk is a copy of the old one under another name, and a
// row's terms include its name's. Plain BM25 (no path field) at either
// revision finds the file chunk by its own file's name only.
func TestTextArmRenamedCopies(t *testing.T) {
	r := gittest.New(t)
	fn := func(body string) string { return "package p\n\nfunc Ocelot() int {\n\treturn " + body + "\n}\n" }
	oldRev := r.CommitAt("2024-01-01T00:00:00Z", "old", map[string]string{"quaggafile.go": fn("1")})
	r.Git("branch", "old")
	r.Git("rm", "-q", "quaggafile.go")
	newRev := r.CommitAt("2024-02-01T00:00:00Z", "new", map[string]string{"serowfile.go": fn("2")})
	repo := openRepo(t, r.Dir)
	run(t, repo, Options{Query: "ocelot", Mode: ModeText, Refs: gitindex.RefSelection{Patterns: []string{"old", "main"}}, K: 5})

	rd, _ := openRevs(t, repo, []string{oldRev, newRev})
	copies := 0
	for _, seg := range rd.Snap.Segments {
		for i := 0; i < seg.Rows(); i++ {
			if c := seg.FirstCopy(i); c != i && seg.Row(i).Kind == "file" && seg.Row(c).Name != seg.Row(i).Name {
				copies++
			}
		}
	}
	rd.Close()
	if copies != 1 {
		t.Fatalf("%d file chunks are copies of one named otherwise, want 1", copies)
	}
	for _, c := range []struct{ rev, path, other string }{{oldRev, "quaggafile.go", "serowfile"}, {newRev, "serowfile.go", "quaggafile"}} {
		name := strings.TrimSuffix(c.path, ".go")
		res := run(t, repo, Options{Query: name, Mode: ModeText, Raw: true, Rev: c.rev, K: 5})
		if len(res.Hits) != 1 || res.Hits[0].Path != c.path || res.Hits[0].Kind != "file" {
			t.Errorf("%s at %.7s: hits %v, want %s's file chunk alone", name, c.rev, names(res), c.path)
		}
		if res := run(t, repo, Options{Query: c.other, Mode: ModeText, Raw: true, Rev: c.rev, K: 5}); len(res.Hits) != 0 {
			t.Errorf("%s at %.7s: hits %v, want none (the other file's name)", c.other, c.rev, names(res))
		}
	}
}

// TestRadixSort checks the radix sort against a stable sort, with keys
// over several passes.
func TestRadixSort(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	for _, n := range []int{0, 1, 300, 5000} {
		for _, maxKey := range []uint32{0, 1, 2047, 1 << 20, 1<<31 - 1} {
			a := make([]copyRow, n)
			for i := range a {
				a[i] = copyRow{int32(rng.Int63n(int64(maxKey) + 1)), int32(i)}
			}
			want := slices.Clone(a)
			slices.SortStableFunc(want, func(x, y copyRow) int { return cmp.Compare(x.first, y.first) })
			got := radixSort(a, make([]copyRow, n), func(c copyRow) uint32 { return uint32(c.first) }, maxKey)
			if !slices.Equal(got, want) {
				t.Fatalf("n %d, keys up to %d: radix order differs from a stable sort", n, maxKey)
			}
		}
	}
}
