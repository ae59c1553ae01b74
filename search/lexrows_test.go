package search

import (
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/internal/testkit/gittest"
	"github.com/bcindex/bcindex/lexical"
	"github.com/bcindex/bcindex/segment"
)

// TestFormPostingsAsPerRow: six versions of a file whose functions move
// down and change one at a time, and of a file renamed, in one segment.
// At each revision, and over all of them, every form's postings as the
// text arm reads them (formPostings) are those that postings stored per
// row would give: each visible row in row order, with its first copy's
// frequency corrected by the difference of the two names' tokens, the
// rows whose frequency is 0 left out.
func TestFormPostingsAsPerRow(t *testing.T) {
	r := gittest.New(t)
	version := func(k int) string {
		var b strings.Builder
		b.WriteString("package p\n\n" + strings.Repeat("// Shifted.\n", k))
		for i := range 12 {
			body := "x"
			if i%6 == k {
				body = fmt.Sprintf("x + %d", k)
			}
			// Longer than 50 lines, so that its if is a block named
			// after its line.
			fmt.Fprintf(&b, "// Walrus%d keeps the lemur count.\nfunc Walrus%d(x int) int {\n\tif x > %d {\n", i, i, i)
			b.WriteString(strings.Repeat("\t\tx = lemur(x, x)\n", 6) + "\t}\n" + strings.Repeat("\tx += seal(x)\n", 48))
			fmt.Fprintf(&b, "\treturn %s\n}\n\n", body)
		}
		return b.String()
	}
	other := "package p\n\nfunc Narwhal() int {\n\treturn 1\n}\n"
	var revs, branches []string
	for k := range 6 {
		files := map[string]string{"a.go": version(k)}
		switch {
		case k == 0:
			files["narwhalfile.go"] = other
		case k == 3:
			r.Remove("narwhalfile.go")
			files["dugongfile.go"] = strings.Replace(other, "1", "2", 1)
		}
		revs = append(revs, r.CommitAt(fmt.Sprintf("2024-01-%02dT00:00:00Z", k+1), "v", files))
		branches = append(branches, fmt.Sprintf("v%d", k))
		r.Git("branch", branches[k])
	}
	repo := openRepo(t, r.Dir)
	run(t, repo, Options{Query: "walrus", Mode: ModeText, Refs: gitindex.RefSelection{Patterns: branches}, K: 5})
	rd, commits := openRevs(t, repo, revs)
	defer rd.Close()
	if len(rd.Snap.Segments) != 1 {
		t.Fatalf("%d segments; the test needs every version in one", len(rd.Snap.Segments))
	}
	seg := rd.Snap.Segments[0]
	forms := map[string]bool{"walrus": true, "lemur": true, "return": true, "x": true, "count": true, "absent": true}
	copies, renamed := 0, 0
	for i := range seg.Rows() {
		for _, tok := range lexical.Tokens(seg.Name(i)) {
			forms[tok] = true
		}
		if c := seg.FirstCopy(i); c != i {
			copies++
			if seg.Name(c) != seg.Name(i) {
				renamed++
			}
		}
	}
	if copies < 50 || renamed < 10 {
		t.Fatalf("%d copies, %d of them named otherwise; the test needs many of both", copies, renamed)
	}
	opts := Options{}
	opts.compiled()
	views := []*view{newView(repo, commits[0], rd.Snap, rd.Listings, rd.Fresh, rd.Located, &opts)}
	for i := range commits {
		views = append(views, newView(repo, commits[i], rd.Snap, rd.Listings[i:i+1], nil, nil, &opts))
	}
	var buf []rowFreq
	for vi, v := range views {
		for form := range forms {
			buf = v.formPostings(0, form, seg.Lex.Iter(form), buf)
			if want := perRowPostings(seg, v, form); !slices.Equal(buf, want) {
				t.Errorf("view %d, %q: postings %v, want %v", vi, form, buf, want)
			}
		}
	}
}

// perRowPostings is what postings stored per row would hold of form for
// the rows v sees: read row by row, through the first copy's postings
// and both rows' names.
func perRowPostings(seg *segment.Segment, v *view, form string) []rowFreq {
	posted := map[int]int32{}
	for it := seg.Lex.Iter(form); it.Next(); {
		posted[it.Row()] = int32(it.Freq())
	}
	var out []rowFreq
	for r := range seg.Rows() {
		if !v.allow[0].Test(uint(r)) {
			continue
		}
		c := seg.FirstCopy(r)
		f := posted[c]
		if c != r {
			f += countToken(lexical.Tokens(seg.Name(r)), form) - countToken(lexical.Tokens(seg.Name(c)), form)
		}
		if f > 0 {
			out = append(out, rowFreq{int32(r), f})
		}
	}
	return out
}

// TestMergeCopies: the copies' postings, few (sorted) or many (swept by
// place), merge into the first copies' in row order, and the places are
// cleared for the next form.
func TestMergeCopies(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	m := &copyMap{copyIndex: &copyIndex{}}
	for r := int32(0); r < 4000; r++ {
		if rng.Intn(3) == 0 {
			m.rows = append(m.rows, r)
		}
	}
	m.slot = make([]int32, len(m.rows))
	for _, n := range []int{1, 5, len(m.rows) / 20, len(m.rows) / 2, len(m.rows)} {
		var buf, want []rowFreq
		hits := rng.Perm(len(m.rows))[:n]
		for _, at := range hits {
			m.slot[at] = int32(at%7 + 1)
			want = append(want, rowFreq{m.rows[at], int32(at%7 + 1)})
		}
		for r := int32(0); r < 4000; r++ {
			if !slices.Contains(m.rows, r) && rng.Intn(2) == 0 {
				buf = append(buf, rowFreq{r, 9})
				want = append(want, rowFreq{r, 9})
			}
		}
		slices.SortFunc(want, func(a, b rowFreq) int { return int(a.row - b.row) })
		places := make([]int32, n)
		for i, at := range hits {
			places[i] = int32(at)
		}
		if got := m.mergeCopies(buf, places); !slices.Equal(got, want) {
			t.Errorf("%d copies' postings: merged out of order or lost", n)
		}
		if slices.ContainsFunc(m.slot, func(f int32) bool { return f != 0 }) {
			t.Errorf("%d copies' postings: places left set", n)
		}
	}
}

// TestRenameFix: the renamed copies' corrections keep the row order, drop
// a row that falls to 0 and add one only its name holds.
func TestRenameFix(t *testing.T) {
	m := &copyMap{copyIndex: &copyIndex{}}
	buf := []rowFreq{{2, 1}, {5, 2}, {9, 1}}
	fix := []rowFreq{{1, 2}, {2, -1}, {5, 1}, {7, -1}, {12, 1}}
	want := []rowFreq{{1, 2}, {5, 3}, {9, 1}, {12, 1}}
	if got := m.renameFix(buf, fix); !slices.Equal(got, want) {
		t.Errorf("fixed %v, want %v", got, want)
	}
}
