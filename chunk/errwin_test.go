package chunk

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/bcindex/bcindex/chunk/vocab"
)

// errWindows returns the indexes of the error windows of f.
func errWindows(f File) []int {
	var ws []int
	for i, c := range f.Chunks {
		if c.Kind == vocab.KindWindow && c.SyntaxError {
			ws = append(ws, i)
		}
	}
	return ws
}

// TestErrorRegion: a broken region between two good functions is a window
// flagged SyntaxError under the file chunk; the functions are intact and
// the region's lines stay in the file chunk's text.
func TestErrorRegion(t *testing.T) {
	tests := []struct {
		name       string
		start, end int // lines of the region
		garbage    string
		good       []string
	}{
		{"errregion.go", 8, 9, "@@@ this is not Go", []string{"Before", "After"}},
		{"errregion.py", 5, 6, "::: this is not Python", []string{"before", "after"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src, err := os.ReadFile("testdata/" + tt.name)
			if err != nil {
				t.Fatal(err)
			}
			f := Split(tt.name, src)
			checkInvariants(t, src, f)
			if f.Fallback {
				t.Fatalf("fallback")
			}
			for _, name := range tt.good {
				if c := f.Chunks[find(t, f, name)]; c.SyntaxError || c.Kind != vocab.KindFunction {
					t.Errorf("%s: %+v", name, c)
				}
			}
			ws := errWindows(f)
			if len(ws) != 1 {
				t.Fatalf("%d error windows, want 1:\n%s", len(ws), render(f))
			}
			w := f.Chunks[ws[0]]
			if w.Parent != 0 || w.StartLine != tt.start || w.EndLine != tt.end || w.Name != "" {
				t.Errorf("window %+v, want lines %d-%d under the file", w, tt.start, tt.end)
			}
			if want := fmt.Sprintf("line %d: unexpected `", tt.start); !strings.HasPrefix(w.ErrorDetail, want) {
				t.Errorf("ErrorDetail %q, want prefix %q", w.ErrorDetail, want)
			}
			// Whole lines.
			if w.StartByte > 0 && src[w.StartByte-1] != '\n' || w.EndByte < len(src) && src[w.EndByte-1] != '\n' {
				t.Errorf("window [%d,%d) is not whole lines", w.StartByte, w.EndByte)
			}
			wt := vocab.IndexText(src, f, ws[0])
			if wt != string(src[w.StartByte:w.EndByte]) {
				t.Errorf("window IndexText %q, want its source", wt)
			}
			if !strings.Contains(wt, tt.garbage) || strings.Contains(wt, "return") {
				t.Errorf("window IndexText %q", wt)
			}
			// The region is not cut out of the file chunk, which still reads
			// as its own text (not "": the window does not carry it).
			ft := vocab.IndexText(src, f, 0)
			if !strings.Contains(ft, tt.garbage) || strings.Count(ft, tt.garbage) != 1 {
				t.Errorf("file IndexText lacks the region:\n%s", ft)
			}
			if strings.Contains(ft, "return") {
				t.Errorf("file IndexText has a function body:\n%s", ft)
			}
			// Each line of the region is indexed by the file chunk and the
			// window, nothing else.
			if n := indexedCount(src, f, tt.garbage); n != 2 {
				t.Errorf("region indexed %d times, want 2", n)
			}
		})
	}
}

// indexedCount counts the chunks whose IndexText holds s.
func indexedCount(src []byte, f File, s string) int {
	n := 0
	for i := range f.Chunks {
		if strings.Contains(vocab.IndexText(src, f, i), s) {
			n++
		}
	}
	return n
}

// TestErrorRegionShapes covers class bodies, broken code that is not
// between definitions, long regions and long files.
func TestErrorRegionShapes(t *testing.T) {
	t.Run("class body", func(t *testing.T) {
		src := []byte("class A:\n    def m(self):\n        return 1\n\n    )))) !!! ]]]\n\n    def n(self):\n        return 2\n")
		f := Split("a.py", src)
		checkInvariants(t, src, f)
		ws := errWindows(f)
		if len(ws) != 1 || f.Chunks[ws[0]].Parent != find(t, f, "A") || f.Chunks[ws[0]].StartLine != 5 || f.Chunks[ws[0]].EndLine != 5 {
			t.Fatalf("want one window on line 5 under A:\n%s", render(f))
		}
		if got := vocab.IndexText(src, f, find(t, f, "A")); !strings.Contains(got, ")))) !!! ]]]") {
			t.Errorf("class IndexText lacks the region:\n%s", got)
		}
	})
	t.Run("js class and file", func(t *testing.T) {
		src := []byte("class A {\n  m() { return 1 }\n  )))) ### ]]]\n  n() { return 2 }\n}\nfunction f() {}\n@@@ ### $$$ )))\nfunction g() {}\n")
		f := Split("a.js", src)
		checkInvariants(t, src, f)
		ws := errWindows(f)
		if len(ws) != 2 || f.Chunks[ws[0]].Parent != find(t, f, "A") || f.Chunks[ws[1]].Parent != 0 || f.Chunks[ws[1]].StartLine != 7 {
			t.Fatalf("want windows under A and the file:\n%s", render(f))
		}
	})
	t.Run("table language", func(t *testing.T) {
		src := []byte("fn a() {}\n)))) ### ]]] @@@\nfn b() {}\n")
		f := Split("a.rs", src)
		checkInvariants(t, src, f)
		if ws := errWindows(f); len(ws) != 1 || f.Chunks[ws[0]].StartLine != 2 || f.Chunks[ws[0]].ErrorDetail == "" {
			t.Fatalf("want a window on line 2:\n%s", render(f))
		}
	})
	t.Run("definition in the error", func(t *testing.T) {
		// Definitions found inside an ERROR node are chunked; the node
		// makes no window.
		src, _ := os.ReadFile("testdata/broken.go")
		f := Split("broken.go", src)
		checkInvariants(t, src, f)
		if ws := errWindows(f); len(ws) != 0 {
			t.Errorf("broken.go has error windows:\n%s", render(f))
		}
	})
	t.Run("long region", func(t *testing.T) {
		var b strings.Builder
		b.WriteString("package x\n\nfunc A() {}\n\n")
		for i := 0; i < 100; i++ {
			fmt.Fprintf(&b, ")))) @@@ garbage%d ]]]\n", i)
		}
		b.WriteString("\nfunc B() {}\n")
		src := []byte(b.String())
		f := Split("x.go", src)
		checkInvariants(t, src, f)
		ws := errWindows(f)
		if len(ws) != 3 {
			t.Fatalf("%d error windows, want 3:\n%s", len(ws), render(f))
		}
		want := [][2]int{{5, 44}, {35, 74}, {65, 104}}
		for k, i := range ws {
			c := f.Chunks[i]
			if c.Parent != 0 || [2]int{c.StartLine, c.EndLine} != want[k] || !strings.HasPrefix(c.ErrorDetail, "line ") {
				t.Errorf("window %d: %+v, want lines %v", k, c, want[k])
			}
		}
		find(t, f, "A")
		find(t, f, "B")
		// chunk 0's own text is long: its windows carry it, the error
		// windows add to them.
		if got := vocab.IndexText(src, f, 0); got != "" {
			t.Errorf("file IndexText is %d bytes, want its windows to carry it", len(got))
		}
		for _, s := range []string{"garbage0 ", "garbage50 ", "garbage99 "} {
			if n := indexedCount(src, f, s); n != 2 {
				t.Errorf("%s indexed %d times, want 2", s, n)
			}
		}
		if n := indexedCount(src, f, "garbage31 "); n != 4 { // in two overlaps
			t.Errorf("garbage31 indexed %d times, want 4", n)
		}
	})
	t.Run("only errors", func(t *testing.T) {
		src := []byte(")))) ### ]]]\n@@@\n")
		f := Split("x.js", src)
		checkInvariants(t, src, f)
		if !f.Fallback {
			t.Errorf("want fallback:\n%s", render(f))
		}
	})
}
