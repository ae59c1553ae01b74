package chunk

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/bcindex/bcindex/chunk/vocab"
)

var update = flag.Bool("update", false, "rewrite testdata/golden files")

// fixtures returns the source files under testdata, not the golden files.
func fixtures(t testing.TB) []string {
	t.Helper()
	ents, err := os.ReadDir("testdata")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		if !e.IsDir() {
			names = append(names, e.Name())
		}
	}
	return names
}

// render prints the structure of f one chunk a line for golden files.
func render(f File) string {
	var b strings.Builder
	fmt.Fprintf(&b, "language=%s fallback=%v syntax_errors=%d\n", f.Language, f.Fallback, f.SyntaxErrors)
	for i, c := range f.Chunks {
		fmt.Fprintf(&b, "%d %s %q parent=%d lines=%d-%d", i, c.Kind, c.Name, c.Parent, c.StartLine, c.EndLine)
		if c.SyntaxError {
			b.WriteString(" error")
		}
		if c.Signature != "" {
			fmt.Fprintf(&b, " sig=%q", c.Signature)
		}
		if c.Doc != "" {
			fmt.Fprintf(&b, " doc=%q", c.Doc)
		}
		if c.QualifiedName != c.Name && c.QualifiedName != "" {
			fmt.Fprintf(&b, " qn=%q", c.QualifiedName)
		}
		if c.Access != "" {
			fmt.Fprintf(&b, " access=%s", c.Access)
		}
		if len(c.Decorators) > 0 {
			fmt.Fprintf(&b, " deco=%q", c.Decorators)
		}
		if len(c.Imports) > 0 {
			fmt.Fprintf(&b, " imports=%q", c.Imports)
		}
		if c.ErrorDetail != "" {
			fmt.Fprintf(&b, " err=%q", c.ErrorDetail)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func TestSplitGolden(t *testing.T) {
	for _, name := range fixtures(t) {
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join("testdata", name))
			if err != nil {
				t.Fatal(err)
			}
			f := Split(name, src)
			checkInvariants(t, src, f)
			got := render(f)
			golden := filepath.Join("testdata", "golden", name+".golden")
			if *update {
				if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test ./chunk -update)", err)
			}
			if got != string(want) {
				t.Errorf("Split(%s) changed; got:\n%s\nwant:\n%s", name, got, want)
			}
		})
	}
}

// checkInvariants verifies what every File promises, whatever the input.
func checkInvariants(t testing.TB, src []byte, f File) {
	t.Helper()
	if err := f.check(len(src)); err != nil {
		t.Fatalf("invariant: %v\n%s", err, render(f))
	}
	li := newLineIndex(src)
	if c0 := f.Chunks[0]; c0.StartLine != 1 || c0.EndLine != li.count(len(src)) {
		t.Errorf("chunk 0 lines %d-%d, want 1-%d", c0.StartLine, c0.EndLine, li.count(len(src)))
	}
	covered := map[int]int{} // end of the windows of each parent so far: no gaps
	for i, c := range f.Chunks {
		if sl, el := li.lines(c.StartByte, c.EndByte); i > 0 && (sl != c.StartLine || el != c.EndLine) {
			t.Errorf("chunk %d: lines %d-%d, bytes say %d-%d", i, c.StartLine, c.EndLine, sl, el)
		}
		if len(c.Signature) > maxSignature {
			t.Errorf("chunk %d: signature of %d bytes", i, len(c.Signature))
		}
		for _, s := range []string{c.Name, c.Signature, c.Doc} {
			if !utf8.ValidString(s) {
				t.Errorf("chunk %d: invalid UTF-8 in %q", i, s)
			}
		}
		if (c.Kind == vocab.KindWindow) != (c.Name == "" && c.Kind == vocab.KindWindow) {
			t.Errorf("chunk %d: window with name %q", i, c.Name)
		}
		if c.Kind == vocab.KindWindow && !c.SyntaxError {
			end, ok := covered[c.Parent]
			if !ok && c.StartByte != f.Chunks[c.Parent].StartByte && f.Fallback {
				t.Errorf("chunk %d: first window starts at %d", i, c.StartByte)
			}
			if ok && c.StartByte > end || c.EndByte <= c.StartByte {
				t.Errorf("chunk %d: window [%d,%d) leaves a gap after %d", i, c.StartByte, c.EndByte, end)
			}
			covered[c.Parent] = max(end, c.EndByte)
		}
		if c.Kind == vocab.KindWindow && c.SyntaxError && (c.ErrorDetail == "" || c.EndByte <= c.StartByte || f.Fallback) {
			t.Errorf("chunk %d: error window [%d,%d) detail %q", i, c.StartByte, c.EndByte, c.ErrorDetail)
		}
		if c.Kind != vocab.KindFile && c.Kind != vocab.KindWindow && c.EndByte <= c.StartByte {
			t.Errorf("chunk %d: empty %s", i, c.Kind)
		}
		_ = vocab.IndexText(src, f, i)
	}
	if f.Fallback && covered[0] != len(src) {
		t.Errorf("windows cover %d of %d bytes", covered[0], len(src))
	}
	// Windows of a chunk cover its whole range.
	for p, end := range covered {
		if f.Chunks[p].EndByte != end {
			t.Errorf("windows of chunk %d end at %d, not %d", p, end, f.Chunks[p].EndByte)
		}
	}
}

func TestIndexText(t *testing.T) {
	src, err := os.ReadFile("testdata/sample.py")
	if err != nil {
		t.Fatal(err)
	}
	f := Split("sample.py", src)
	find := func(name string) int {
		for i, c := range f.Chunks {
			if c.Name == name {
				return i
			}
		}
		t.Fatalf("no chunk %q", name)
		return -1
	}
	tests := []struct {
		chunk         int
		want, notWant []string
	}{
		{0, []string{"CONST = 1", "def plain(a, b=2)\n", "class Base(object)\n", `if __name__ == "__main__"`}, []string{"return a + b", "attr = 3"}},
		{find("Base"), []string{"attr = 3", "def value(self)\n", "class Inner"}, []string{"return self.attr", "def deep"}},
		{find("cached"), []string{"@functools.lru_cache", "def helper():", "return helper()"}, nil},
	}
	for _, tt := range tests {
		got := vocab.IndexText(src, f, tt.chunk)
		for _, w := range tt.want {
			if !strings.Contains(got, w) {
				t.Errorf("vocab.IndexText(%d) lacks %q:\n%s", tt.chunk, w, got)
			}
		}
		for _, w := range tt.notWant {
			if strings.Contains(got, w) {
				t.Errorf("vocab.IndexText(%d) has %q:\n%s", tt.chunk, w, got)
			}
		}
	}
	if got := vocab.IndexText(src, f, len(f.Chunks)); got != "" {
		t.Errorf("IndexText out of range = %q", got)
	}

	// The windows of a fallback file carry its text; chunk 0 has none.
	text := []byte(strings.Repeat("some line\n", 100))
	w := Split("notes.pl", text)
	if got := vocab.IndexText(text, w, 0); got != "" {
		t.Errorf("fallback file chunk IndexText is %d bytes, want none", len(got))
	}
	var all strings.Builder
	for i := range w.Chunks {
		all.WriteString(vocab.IndexText(text, w, i))
	}
	if !strings.Contains(all.String(), string(text[:200])) {
		t.Errorf("windows lack the text")
	}
	if got := vocab.IndexText(nil, Split("empty.go", nil), 0); got != "" {
		t.Errorf("empty file IndexText = %q", got)
	}
}

func TestWindows(t *testing.T) {
	var b bytes.Buffer
	for i := 1; i <= 100; i++ {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	long := bytes.Repeat([]byte("é"), 3*maxWindowBytes/2) // 3 windows' worth on one line
	tests := []struct {
		name  string
		src   []byte
		lines [][2]int
	}{
		{"100 lines", b.Bytes(), [][2]int{{1, 40}, {31, 70}, {61, 100}}},
		{"no trailing newline", []byte("a\nb"), [][2]int{{1, 2}}},
		{"one long line", long, [][2]int{{1, 1}, {1, 1}, {1, 1}}},
		{"empty", nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := Split("x.pl", tt.src) // no grammar
			checkInvariants(t, tt.src, f)
			if !f.Fallback || f.Language != "perl" {
				t.Errorf("Fallback=%v Language=%q", f.Fallback, f.Language)
			}
			var got [][2]int
			for _, c := range f.Chunks[1:] {
				got = append(got, [2]int{c.StartLine, c.EndLine})
				if !utf8.Valid(tt.src[c.StartByte:c.EndByte]) {
					t.Errorf("window [%d,%d) splits a rune", c.StartByte, c.EndByte)
				}
			}
			if fmt.Sprint(got) != fmt.Sprint(tt.lines) {
				t.Errorf("windows %v, want %v", got, tt.lines)
			}
		})
	}
}

// TestOddInputs feeds inputs that have broken parsers before; Split must
// return a valid File for each.
func TestOddInputs(t *testing.T) {
	deep := strings.Repeat("(", 20000)
	inputs := map[string]string{
		"nul.go":       "package x\x00\x00func F() {}",
		"invalid.py":   "def f():\n    return '\xff\xfe'\n\xc3\x28 = 1\n",
		"deep.js":      deep,
		"deep.py":      deep,
		"deepclass.py": strings.Repeat("class A:\n", 200) + "    pass\n",
		"nested.ts":    strings.Repeat("namespace N { ", 100) + strings.Repeat("}", 100),
		"crlf.md":      "# A\r\n\r\ntext\r\n## B\r\n",
		"fence.md":     "```\n# not\n",
		"only.md":      "# \n#\n####### seven\n",
		"bom.go":       "\ufeffpackage x\nfunc F() {}\n",
		"err.ts":       "}}}}",
		"only-doc.go":  "// just a comment",
	}
	for name, s := range inputs {
		t.Run(name, func(t *testing.T) {
			checkInvariants(t, []byte(s), Split(name, []byte(s)))
		})
	}
}

func TestSplitConcurrent(t *testing.T) {
	names := fixtures(t)
	want := make([]string, len(names))
	srcs := make([][]byte, len(names))
	for i, n := range names {
		srcs[i], _ = os.ReadFile(filepath.Join("testdata", n))
		want[i] = render(Split(n, srcs[i]))
	}
	done := make(chan string)
	for g := 0; g < 4; g++ {
		go func() {
			for r := 0; r < 5; r++ {
				for i, n := range names {
					if got := render(Split(n, srcs[i])); got != want[i] {
						done <- n
						return
					}
				}
			}
			done <- ""
		}()
	}
	for g := 0; g < 4; g++ {
		if n := <-done; n != "" {
			t.Errorf("concurrent Split(%s) differs", n)
		}
	}
}
