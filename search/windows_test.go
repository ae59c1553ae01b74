package search

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/bcindex/bcindex/chunk/vocab"
	"github.com/bcindex/bcindex/internal/testkit/gittest"
	"github.com/bcindex/bcindex/store"
)

// TestWindows: a file's windows, made from its indexed chunks, hold every
// chunk with text once and no block; small adjacent functions share a
// window, a type too long for one is split at its methods, and the
// windows follow the file in order. The text arm over them finds the
// function a query describes.
func TestWindows(t *testing.T) {
	r := gittest.New(t)
	var b strings.Builder
	b.WriteString("package p\n\nimport \"fmt\"\n\n")
	for i := range 6 {
		fmt.Fprintf(&b, "// Small%d returns %d.\nfunc Small%d() int {\n\treturn %d\n}\n\n", i, i, i, i)
	}
	b.WriteString("// Big holds a count.\ntype Big struct{ n int }\n\n")
	for i := range 8 {
		fmt.Fprintf(&b, "// Method%d adds to the count.\nfunc (b *Big) Method%d(x int) {\n", i, i)
		for j := range 12 {
			fmt.Fprintf(&b, "\tif x > %d {\n\t\tb.n += x * %d\n\t}\n", j, j)
		}
		b.WriteString("\tfmt.Println(b.n)\n}\n\n")
	}
	b.WriteString("// Lonely walks the retry budget with backoff.\nfunc Lonely() {}\n")
	rev := r.Commit("one", map[string]string{"p/a.go": b.String()})
	repo := openRepo(t, r.Dir)
	run(t, repo, Options{Query: "Small1", Rev: rev, K: 5}) // indexes
	commits, err := resolveAll(repo, []string{rev})
	if err != nil {
		t.Fatal(err)
	}
	rd, err := store.Open(context.Background(), repo, store.Want{Commits: commits}, "")
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	opts := Options{}
	opts.compiled()
	v := newView(repo, commits[0], rd.Snap, rd.Listings, rd.Fresh, rd.Located, &opts)
	if len(v.added) != 1 {
		t.Fatalf("%d files visible, want 1", len(v.added))
	}
	f := v.added[0]
	seg := v.snap.Segments[f.seg]
	for _, size := range []int{300, 1500, 100000} {
		ws := v.windows(size)
		var total, inWindows float64
		prev := int32(-1)
		window := map[int32][]string{}
		for i := f.first; i < f.first+f.n; i++ {
			row, w := seg.Row(i), ws.of[f.seg][i]
			content := row.Kind != vocab.KindBlock && seg.Lex.DocLen(i) > 0
			if content != (w >= 0) {
				t.Errorf("size %d: row %d (%s %s, %d terms) in window %d", size, i, row.Kind, row.Name, seg.Lex.DocLen(i), w)
			}
			if w < 0 {
				continue
			}
			total += float64(seg.Lex.DocLen(i))
			if w < prev {
				t.Errorf("size %d: row %d (%s) in window %d after window %d", size, i, row.Name, w, prev)
			}
			prev = w
			window[w] = append(window[w], row.Name)
		}
		for _, l := range ws.len {
			inWindows += l
		}
		if total != inWindows {
			t.Errorf("size %d: windows hold %v terms, the rows %v", size, inWindows, total)
		}
		together := func(a, b string) bool {
			for _, names := range window {
				if strings.Contains(" "+strings.Join(names, " ")+" ", " "+a+" ") {
					return strings.Contains(" "+strings.Join(names, " ")+" ", " "+b+" ")
				}
			}
			return false
		}
		switch size {
		case 300:
			if together("Method0", "Method1") {
				t.Errorf("size %d: two long methods share a window: %v", size, window)
			}
			if !together("Small0", "Small1") {
				t.Errorf("size %d: small functions apart: %v", size, window)
			}
		case 100000:
			if len(ws.len) != 1 {
				t.Errorf("size %d: %d windows, want the whole file as one", size, len(ws.len))
			}
		}
	}
	v.fusion.windowChars = 1500
	out, _ := v.textArm([]string{"retry", "budget", "backoff"})
	if len(out) == 0 || seg.Row(out[0].row).Name != "Lonely" {
		t.Fatalf("text arm over windows: %v, want Lonely's window first", out)
	}
}
