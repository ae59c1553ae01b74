package chunk

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/bcindex/bcindex/chunk/vocab"
)

// find returns the index of the first chunk named name in f.
func find(t *testing.T, f File, name string) int {
	t.Helper()
	for i, c := range f.Chunks {
		if c.Name == name {
			return i
		}
	}
	t.Fatalf("no chunk %q in\n%s", name, render(f))
	return -1
}

// TestClassHeader checks that a class-like chunk reads as its header: doc,
// fields and the signatures of its methods, without method bodies.
func TestClassHeader(t *testing.T) {
	tests := []struct {
		file, class string
		want        []string
		notWant     []string
	}{
		{"sample.java", "Cart", []string{"A shopping cart.", "private final List<Item> items;", "protected int version = 1;", "public void add(Item item)", "static class Entry"}, []string{"items.add(item)", "prices.size()", "int qty;"}},
		{"sample.rs", "Point", []string{"A point in space.", "pub x: i32,"}, nil},
		{"sample.rs", "Display for Point", []string{"fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result"}, []string{"write!"}},
		{"sample.cpp", "Shape", []string{"std::string name;", "int id_;", "int id() const", "public:"}, []string{"return id_"}},
		{"sample.cs", "Order", []string{"An order.", "[Serializable]", "private readonly List<string> _items", "public int Id { get; set; }", "internal void Add(string item)"}, []string{"_items.Add(item)", "Id = id"}},
		{"sample.rb", "Cart", []string{"attr_reader :items", "def initialize(items = [])", "private"}, []string{"@items = items", "42"}},
		{"sample.php", "Product", []string{"A product.", "private int $price = 0;", "public string $name;", "protected function price(): int"}, []string{"return $this->price"}},
		{"sample.kt", "User", []string{"private val secret = 1", "fun greet(): String", "companion object"}, []string{`"hi $name"`, `User("a", 1)`}},
		{"sample.scala", "Circle", []string{"A circle.", "private val pi = 3.14", "override def toString: String"}, []string{`s"Circle($r)"`}},
		{"sample.swift", "Car", []string{"A car.", "var speed: Int = 0", "private let wheels = 4", "func drive()"}, []string{`print("vroom")`, "self.speed = speed"}},
		{"sample.py", "Base", []string{"attr = 3", "def value(self)"}, []string{"return self.attr"}},
		{"sample.ts", "", nil, nil},
		{"sample.proto", "Order", []string{"int64 id = 1;", "message Item"}, []string{"string sku = 1;"}},
		{"sample.ex", "Shop.Cart", []string{"alias Shop.Item", "def new(items \\\\ [])"}, []string{"%{items: items}"}},
	}
	for _, tt := range tests {
		if tt.class == "" {
			continue
		}
		t.Run(tt.file+"/"+tt.class, func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join("testdata", tt.file))
			if err != nil {
				t.Fatal(err)
			}
			f := Split(tt.file, src)
			got := vocab.IndexText(src, f, find(t, f, tt.class))
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("lacks %q:\n%s", w, got)
				}
			}
			for _, w := range tt.notWant {
				if strings.Contains(got, w) {
					t.Errorf("has %q:\n%s", w, got)
				}
			}
		})
	}
}

// TestEveryLanguageDefines checks that each grammar's fixture yields named
// definitions, and that each method has a class-like parent.
func TestEveryLanguageDefines(t *testing.T) {
	for _, name := range fixtures(t) {
		src, _ := os.ReadFile(filepath.Join("testdata", name))
		f := Split(name, src)
		if grammarFor(f.Language) == nil || f.Fallback || strings.HasPrefix(name, "broken") || strings.HasPrefix(name, "garbage") || len(src) == 0 {
			continue
		}
		named := 0
		for _, c := range f.Chunks[1:] {
			if isDef(c.Kind) || c.Kind == vocab.KindKey || c.Kind == vocab.KindStage {
				if c.Name == "" {
					t.Errorf("%s: unnamed %s at line %d", name, c.Kind, c.StartLine)
				}
				named++
			}
			if c.Kind == vocab.KindMethod && f.Language != "go" && f.Chunks[c.Parent].Kind == vocab.KindFile {
				t.Errorf("%s: method %s under the file", name, c.Name)
			}
		}
		if named == 0 && name != "script" {
			t.Errorf("%s (%s): no named definitions", name, f.Language)
		}
	}
}

func TestMicroChunks(t *testing.T) {
	for _, name := range []string{"long.go", "long.py"} {
		src, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		f := Split(name, src)
		fn := -1
		blocks := 0
		for i, c := range f.Chunks {
			if c.Kind == vocab.KindFunction {
				fn = i
			}
			if c.Kind == vocab.KindBlock {
				blocks++
				if !strings.Contains(c.Name, "@L"+fmt.Sprint(c.StartLine)) {
					t.Errorf("%s: block name %q, line %d", name, c.Name, c.StartLine)
				}
			}
		}
		if blocks < 3 {
			t.Errorf("%s: %d blocks\n%s", name, blocks, render(f))
		}
		// Blocks are not cut out of the function.
		if got := vocab.IndexText(src, f, fn); !strings.Contains(got, "x += it") {
			t.Errorf("%s: function text lacks its loop body", name)
		}
	}
	// A short function has none.
	src := []byte("package x\n\nfunc F() {\n\tfor {\n\t\ta()\n\t\tb()\n\t\tc()\n\t}\n}\n")
	for _, c := range Split("x.go", src).Chunks {
		if c.Kind == vocab.KindBlock {
			t.Errorf("short function got block %s", c.Name)
		}
	}
	// A very long one takes only top-level blocks.
	var b strings.Builder
	b.WriteString("package x\n\nfunc F() {\n")
	for i := 0; i < 60; i++ {
		b.WriteString("\tfor {\n\t\tif a {\n\t\t\tb()\n\t\t\tc()\n\t\t\td()\n\t\t}\n\t\te()\n\t}\n\tx()\n")
	}
	b.WriteString("}\n")
	long := []byte(b.String())
	f := Split("x.go", long)
	checkInvariants(t, long, f)
	top := 0
	for _, c := range f.Chunks {
		if c.Kind == vocab.KindBlock {
			if f.Chunks[c.Parent].Kind == vocab.KindBlock {
				t.Fatalf("nested block %s in a %d-line function", c.Name, f.Chunks[1].EndLine)
			}
			top++
		}
	}
	if top != 60 {
		t.Errorf("%d top-level blocks, want 60", top)
	}
}

// TestLongFileText: a long file-level text is windowed; chunk 0 then
// indexes nothing and the windows carry the code between definitions.
func TestLongFileText(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 50; i++ {
		fmt.Fprintf(&b, "x%d = compute(%d)\n", i, i)
	}
	b.WriteString("\ndef f():\n    return 1\n\n")
	for i := 50; i < 100; i++ {
		fmt.Fprintf(&b, "x%d = compute(%d)\n", i, i)
	}
	src := []byte(b.String())
	f := Split("script.py", src)
	checkInvariants(t, src, f)
	if vocab.IndexText(src, f, 0) != "" {
		t.Errorf("chunk 0 still indexed")
	}
	var all strings.Builder
	windows := 0
	for i, c := range f.Chunks {
		if c.Kind == vocab.KindWindow {
			windows++
			all.WriteString(vocab.IndexText(src, f, i))
		}
	}
	if windows < 2 {
		t.Fatalf("%d windows\n%s", windows, render(f))
	}
	text := all.String()
	for _, w := range []string{"x0 = compute(0)", "x99 = compute(99)", "def f()"} {
		if !strings.Contains(text, w) {
			t.Errorf("windows lack %q", w)
		}
	}
	if strings.Contains(text, "return 1") {
		t.Errorf("windows hold the body of f")
	}
}

func TestDocuments(t *testing.T) {
	src, _ := os.ReadFile("testdata/package.json")
	f := Split("package.json", src)
	for _, k := range []string{"scripts", "dependencies", "devDependencies"} {
		if c := f.Chunks[find(t, f, k)]; c.Kind != vocab.KindKey {
			t.Errorf("%s: kind %s", k, c.Kind)
		}
	}
	// A huge array is windowed.
	var b strings.Builder
	b.WriteString("{\n  \"name\": \"x\",\n  \"items\": [\n")
	for i := 0; i < 200; i++ {
		fmt.Fprintf(&b, "    %d,\n", i)
	}
	b.WriteString("    0\n  ]\n}\n")
	big := []byte(b.String())
	f = Split("data.json", big)
	checkInvariants(t, big, f)
	items := find(t, f, "items")
	windows := 0
	for _, c := range f.Chunks {
		if c.Kind == vocab.KindWindow && c.Parent == items {
			windows++
		}
	}
	if windows < 4 || vocab.IndexText(big, f, items) != "" {
		t.Errorf("items has %d windows\n%s", windows, render(f))
	}
	// Markdown: a long section is windowed by paragraphs with overlap.
	b.Reset()
	b.WriteString("# Title\n\n")
	for i := 0; i < 40; i++ {
		fmt.Fprintf(&b, "Paragraph %d line one.\nLine two.\n\n", i)
	}
	md := []byte(b.String())
	f = Split("x.md", md)
	checkInvariants(t, md, f)
	var ws []Chunk
	for _, c := range f.Chunks {
		if c.Kind == vocab.KindWindow {
			ws = append(ws, c)
		}
	}
	if len(ws) < 2 || ws[1].StartByte >= ws[0].EndByte {
		t.Errorf("section windows %d, not overlapping\n%s", len(ws), render(f))
	}
	for _, w := range ws {
		if s := string(md[w.StartByte:w.EndByte]); !strings.HasPrefix(s, "Paragraph") && !strings.HasPrefix(s, "# Title") {
			t.Errorf("window starts mid-paragraph: %q", s[:20])
		}
	}
}

func TestEmbedWindows(t *testing.T) {
	if got := EmbedWindows("short", "sig", 1500); len(got) != 1 || got[0] != "short" {
		t.Errorf("short: %q", got)
	}
	if got := EmbedWindows(" \n", "sig", 1500); got != nil {
		t.Errorf("blank: %q", got)
	}
	var b strings.Builder
	for i := 0; i < 300; i++ {
		fmt.Fprintf(&b, "\tstatement number %d; // é\n", i)
	}
	text := b.String()
	sig := "func Big(x int) error"
	ws := EmbedWindows(text, sig, 1500)
	if len(ws) < 5 {
		t.Fatalf("%d windows", len(ws))
	}
	for i, w := range ws {
		if n := utf8.RuneCountInString(w); n > 1500 {
			t.Errorf("window %d: %d runes", i, n)
		}
		if i > 0 && !strings.HasPrefix(w, sig+"\n") {
			t.Errorf("window %d lacks the signature", i)
		}
		if !utf8.ValidString(w) {
			t.Errorf("window %d: invalid UTF-8", i)
		}
	}
	// Every line is in some window, and consecutive windows overlap.
	for i := 0; i < 300; i++ {
		line := fmt.Sprintf("statement number %d;", i)
		found := false
		for _, w := range ws {
			if strings.Contains(w, line) {
				found = true
			}
		}
		if !found {
			t.Fatalf("line %d lost", i)
		}
	}
	last := strings.TrimSpace(ws[0][strings.LastIndex(strings.TrimRight(ws[0], "\n"), "\n")+1:])
	if !strings.Contains(ws[1], last) {
		t.Errorf("windows 0 and 1 do not overlap (%q)", last)
	}
	// One huge line is cut on runes.
	huge := strings.Repeat("é", 4000)
	for _, w := range EmbedWindows(huge, "", 1000) {
		if !utf8.ValidString(w) || utf8.RuneCountInString(w) > 1000 {
			t.Errorf("bad window of %d runes", utf8.RuneCountInString(w))
		}
	}
}

func TestMetadata(t *testing.T) {
	src, _ := os.ReadFile("testdata/sample.py")
	f := Split("sample.py", src)
	if c := f.Chunks[find(t, f, "cached")]; len(c.Decorators) != 1 || !strings.HasPrefix(c.Decorators[0], "@functools.lru_cache") || fmt.Sprint(c.Imports) != "[functools]" {
		t.Errorf("cached: %+v", c)
	}
	if c := f.Chunks[find(t, f, "deep")]; c.QualifiedName != "Base.Inner.deep" {
		t.Errorf("deep: qualified %q", c.QualifiedName)
	}
	src, _ = os.ReadFile("testdata/sample.go")
	f = Split("sample.go", src)
	for _, c := range f.Chunks[1:] {
		want := "private"
		if c.Name[0] >= 'A' && c.Name[0] <= 'Z' {
			want = "public"
		}
		if c.Access != want {
			t.Errorf("%s: access %q", c.Name, c.Access)
		}
	}
	src, _ = os.ReadFile("testdata/broken.go")
	f = Split("broken.go", src)
	if c := f.Chunks[find(t, f, "Bad")]; !c.SyntaxError || !strings.HasPrefix(c.ErrorDetail, "line 6: ") {
		t.Errorf("Bad: %+v", c)
	}
	src, _ = os.ReadFile("testdata/sample.cs")
	f = Split("sample.cs", src)
	if c := f.Chunks[find(t, f, "Add")]; c.Access != "internal" || fmt.Sprint(c.Decorators) != "[[Obsolete]]" {
		t.Errorf("Add: %+v", c)
	}
	src, _ = os.ReadFile("testdata/sample.java")
	f = Split("sample.java", src)
	if c := f.Chunks[find(t, f, "total")]; c.Access != "private" || fmt.Sprint(c.Imports) != "[Map]" {
		t.Errorf("total: %+v", c)
	}
}

// TestDocOutsideSiblings: doc comments the grammar hangs on another node
// (a Ruby module's header, a Kotlin import list) still document the
// definition below them; a comment that closes an earlier definition's
// body does not document the next one.
func TestDocOutsideSiblings(t *testing.T) {
	tests := []struct {
		path, src, name, doc string
	}{
		{"a.rb", "module Billing\n  # Computes the invoice total.\n  class Invoice\n  end\nend\n", "Invoice", "Computes the invoice total."},
		{"a.kt", "package x\n\nimport java.io.File\n\n/**\n * Reads the settings.\n */\nfun read(p: String) = File(p).readText()\n", "read", "Reads the settings."},
		{"a.py", "def a():\n    x = 1\n    # trailing note\ndef b():\n    return 2\n", "b", ""},
		{"a.rb", "class A\n  def x\n    1\n    # trailing\n  end\n  def y\n  end\nend\n", "y", ""},
	}
	for _, tt := range tests {
		t.Run(tt.path+" "+tt.name, func(t *testing.T) {
			src := []byte(tt.src)
			f := Split(tt.path, src)
			checkInvariants(t, src, f)
			if c := f.Chunks[find(t, f, tt.name)]; c.Doc != tt.doc {
				t.Fatalf("doc %q, want %q\n%s", c.Doc, tt.doc, render(f))
			}
		})
	}
}
