package chunk

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/bcindex/bcindex/chunk/vocab"
)

// goSample returns n Go files of GOROOT/src spread over the tree: real code
// nobody here wrote, present wherever the tests run.
func goSample(t *testing.T, n int) []string {
	t.Helper()
	root := filepath.Join(runtime.GOROOT(), "src")
	var all []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || d.Name() == "vendor") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(p, ".go") {
			all = append(all, p)
		}
		return nil
	})
	if err != nil || len(all) < n {
		t.Skipf("GOROOT/src not readable (%v, %d files)", err, len(all))
	}
	slices.Sort(all)
	out := make([]string, 0, n)
	for i := range n {
		out = append(out, all[i*len(all)/n])
	}
	return out
}

// edit is one change to a file, given its content and top-level chunks;
// nil when it does not apply.
type edit struct {
	name  string
	fast  bool // Edit must take the fast path when the file has definitions to keep
	apply func(src []byte, tops []Chunk) []byte
}

func splice(src []byte, start, end int, with string) []byte {
	out := append([]byte(nil), src[:start]...)
	out = append(out, with...)
	return append(out, src[end:]...)
}

var edits = []edit{
	{"append a function", true, func(src []byte, tops []Chunk) []byte {
		return append(bytes.Clone(src), "\n// Appended is new.\nfunc Appended() int {\n\tfor i := 0; i < 3; i++ {\n\t\tprintln(i)\n\t}\n\treturn 1\n}\n"...)
	}},
	{"change a body in the middle", true, func(src []byte, tops []Chunk) []byte {
		for _, c := range tops[len(tops)/2:] {
			if c.Kind == vocab.KindFunction || c.Kind == vocab.KindMethod {
				if i := bytes.Index(src[c.StartByte:c.EndByte], []byte("{\n")); i >= 0 {
					at := c.StartByte + i + 2
					return splice(src, at, at, "\tif len(\"x\") > 2 {\n\t\tpanic(1)\n\t}\n")
				}
			}
		}
		return nil
	}},
	{"insert a definition in the middle", true, func(src []byte, tops []Chunk) []byte {
		// Before a function: a constant may be a spec inside a group,
		// where a function is a syntax error.
		c := tops[len(tops)/2]
		for _, t := range tops[len(tops)/2:] {
			if t.Kind == vocab.KindFunction || t.Kind == vocab.KindMethod {
				c = t
				break
			}
		}
		return splice(src, c.StartByte, c.StartByte, "// Inserted is new.\nfunc Inserted() {}\n\n")
	}},
	{"delete a definition in the middle", false, func(src []byte, tops []Chunk) []byte {
		c := tops[len(tops)/2]
		return splice(src, c.StartByte, lineEnd(src, c.EndByte), "")
	}},
	{"reword a doc comment", false, func(src []byte, tops []Chunk) []byte {
		for _, c := range tops[len(tops)/3:] {
			if c.Doc != "" {
				return splice(src, c.StartByte, c.StartByte+2, "// Reworded: ")
			}
		}
		return nil
	}},
	{"comment right above a definition", false, func(src []byte, tops []Chunk) []byte {
		c := tops[len(tops)-1]
		return splice(src, c.StartByte, c.StartByte, "// Above.\n")
	}},
	{"change the last line", false, func(src []byte, tops []Chunk) []byte {
		return append(bytes.TrimRight(bytes.Clone(src), "\n"), " // end\n"...)
	}},
	{"add an import", false, func(src []byte, tops []Chunk) []byte {
		if i := bytes.Index(src, []byte("\nimport ")); i >= 0 {
			return splice(src, i+1, i+1, "import _ \"embed\"\n")
		}
		return nil
	}},
	{"break the syntax", false, func(src []byte, tops []Chunk) []byte {
		c := tops[len(tops)/2]
		return splice(src, c.StartByte, c.StartByte, "func Broken( {\n\n")
	}},
	{"two edits far apart", false, func(src []byte, tops []Chunk) []byte {
		first, last := tops[0], tops[len(tops)-1]
		out := splice(src, last.EndByte, last.EndByte, "\n\nvar Late = 1")
		return splice(out, first.StartByte, first.StartByte, "var Early = 1\n\n")
	}},
}

// splitTops reads a file and splits it; tops are its top-level chunks but
// windows.
func splitTops(t *testing.T, p string) ([]byte, File, []Chunk) {
	t.Helper()
	src, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	prev := Split(p, src)
	var tops []Chunk
	for _, c := range prev.Chunks[1:] {
		if c.Parent == 0 && c.Kind != vocab.KindWindow {
			tops = append(tops, c)
		}
	}
	return src, prev, tops
}

// TestEditMatchesSplit edits real Go files in ways code changes and checks
// that Edit, whenever it takes its fast path, returns exactly what Split
// returns for the new content, and that it does take it for the edits it
// is meant for.
func TestEditMatchesSplit(t *testing.T) {
	files := goSample(t, 60)
	fast := map[string]int{}
	tried := map[string]int{}
	for _, p := range files {
		src, prev, tops := splitTops(t, p)
		if prev.Fallback || prev.SyntaxErrors > 0 || len(tops) < 3 {
			continue
		}
		for _, e := range edits {
			next := e.apply(src, tops)
			if next == nil {
				continue
			}
			tried[e.name]++
			got, ok := Edit(p, next, src, prev)
			if !ok {
				continue
			}
			fast[e.name]++
			if want := Split(p, next); !reflect.DeepEqual(got, want) {
				t.Errorf("%s, %s:\n%s", p, e.name, chunkDiff(got, want))
			}
		}
	}
	for _, e := range edits {
		t.Logf("%-36s fast path %d of %d", e.name, fast[e.name], tried[e.name])
		if e.fast && (tried[e.name] < 20 || fast[e.name] < tried[e.name]*9/10) {
			t.Errorf("%s: fast path taken %d times of %d", e.name, fast[e.name], tried[e.name])
		}
	}
}

// chunkDiff describes the first difference between two files' chunks.
func chunkDiff(got, want File) string {
	if got.Language != want.Language || got.Fallback != want.Fallback || got.SyntaxErrors != want.SyntaxErrors {
		return fmt.Sprintf("file: got %s/%v/%d, want %s/%v/%d", got.Language, got.Fallback, got.SyntaxErrors, want.Language, want.Fallback, want.SyntaxErrors)
	}
	for i := range min(len(got.Chunks), len(want.Chunks)) {
		if !reflect.DeepEqual(got.Chunks[i], want.Chunks[i]) {
			return fmt.Sprintf("chunk %d:\n got %+v\nwant %+v", i, got.Chunks[i], want.Chunks[i])
		}
	}
	return fmt.Sprintf("got %d chunks, want %d", len(got.Chunks), len(want.Chunks))
}

// TestEditRefuses covers the cases Edit must leave to Split.
func TestEditRefuses(t *testing.T) {
	src := []byte("package p\n\nimport \"fmt\"\n\n// A is a.\nfunc A() { fmt.Println() }\n\nfunc B() {}\n")
	prev := Split("p.go", src)
	for _, tc := range []struct {
		name        string
		path        string
		content     []byte
		prevContent []byte
		prev        File
	}{
		{"not Go", "p.py", append(bytes.Clone(src), "\nfunc C() {}\n"...), src, prev},
		{"no previous chunks", "p.go", append(bytes.Clone(src), "\nfunc C() {}\n"...), src, File{Language: "go"}},
		{"previous version in another language", "p.go", append(bytes.Clone(src), "\nfunc C() {}\n"...), src, Split("p.txt", src)},
		{"previous chunks of other content", "p.go", append(bytes.Clone(src), "\nfunc C() {}\n"...), src[:len(src)-1], prev},
		{"imports changed", "p.go", bytes.Replace(src, []byte(`"fmt"`), []byte(`"os"`), 1), src, prev},
		{"nothing kept", "p.go", []byte("package p\n\nimport \"fmt\"\n\nvar X = fmt.Sprint()\n"), src, prev},
		{"new syntax error", "p.go", append(bytes.Clone(src), "\nfunc C( {\n"...), src, prev},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if f, ok := Edit(tc.path, tc.content, tc.prevContent, tc.prev); ok {
				t.Errorf("Edit took the fast path: %+v", f.Chunks)
			}
		})
	}
	// The same edit of the same file, where it applies.
	next := append(bytes.Clone(src), "\nfunc C() {}\n"...)
	got, ok := Edit("p.go", next, src, prev)
	if want := Split("p.go", next); !ok || !reflect.DeepEqual(got, want) {
		t.Errorf("Edit = %v, %+v; want %+v", ok, got, want)
	}
}
