package chunk

import (
	"strings"
	"testing"

	"github.com/bcindex/bcindex/chunk/vocab"
)

// docCase is one definition whose doc comment must (or must not) be found.
type docCase struct {
	name string
	src  string
	def  string // the chunk's name
	doc  string // a phrase its Doc must contain; "" means no doc at all
}

// checkDocs chunks each case as path and checks the named chunk's Doc, and
// that the chunk's text (what the lexical arm indexes) holds the doc.
func checkDocs(t *testing.T, path string, cases []docCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			src := strings.TrimLeft(tc.src, "\n")
			f := Split(path, []byte(src))
			for _, c := range f.Chunks {
				if c.Name != tc.def || c.Kind == vocab.KindFile {
					continue
				}
				if tc.doc == "" {
					if c.Doc != "" {
						t.Errorf("%s: doc %q, want none", tc.def, c.Doc)
					}
					return
				}
				if !strings.Contains(c.Doc, tc.doc) {
					t.Errorf("%s: doc %q, want it to contain %q", tc.def, c.Doc, tc.doc)
				}
				if text := src[c.StartByte:c.EndByte]; !strings.Contains(text, tc.doc) {
					t.Errorf("%s: chunk text %q does not hold its doc", tc.def, text)
				}
				return
			}
			t.Fatalf("no chunk %q in %s", tc.def, names(f))
		})
	}
}

func names(f File) string {
	var s []string
	for _, c := range f.Chunks {
		s = append(s, c.Kind+":"+c.Name)
	}
	return strings.Join(s, " ")
}

func TestDocAttachGo(t *testing.T) {
	checkDocs(t, "a.go", []docCase{
		{"line", "package a\n\n// Open opens the door.\nfunc Open() {}\n", "Open", "opens the door"},
		{"blank line", "package a\n\n// Open opens the door.\n\nfunc Open() {}\n", "Open", "opens the door"},
		{"block", "package a\n\n/* Open opens the door. */\nfunc Open() {}\n", "Open", "opens the door"},
		{"other code between", "package a\n\n// About x.\nvar x = 1\n\nfunc Open() {}\n", "Open", ""},
		{"directive only", "package a\n\n//go:noinline\nfunc Open() {}\n", "Open", ""},
		{"method", "package a\n\ntype T struct{}\n\n// Close shuts the door.\n\nfunc (T) Close() {}\n", "Close", "shuts the door"},
	})
}

func TestDocAttachJavaScript(t *testing.T) {
	checkDocs(t, "a.js", []docCase{
		{"jsdoc blank line", `
class Pipeline {
  /**
   * Register a callback to run before the action handler fires.
   */

  hookBefore(fn) { this.hooks.push(fn); }
}
`, "hookBefore", "callback to run before"},
		{"jsdoc function", "/** Sums the list. */\nfunction sum(xs) { return 0 }\n", "sum", "Sums the list"},
		{"line comments", "import x from 'x'\n\n// Sums the list.\n// Twice.\n\nfunction sum(xs) { return 0 }\n", "sum", "Sums the list"},
		{"export", "/**\n * Sums the list.\n */\n\nexport function sum(xs) { return 0 }\n", "sum", "Sums the list"},
		{"arrow const", "/** Sums the list. */\nconst sum = (xs) => 0\n", "sum", "Sums the list"},
		{"license header", "/* Copyright 2020 Someone. MIT. */\n\nfunction sum(xs) { return 0 }\n", "sum", ""},
		{"code between", "/** Sums the list. */\nlet y = 2\n\nfunction sum(xs) { return 0 }\n", "sum", ""},
	})
}

func TestDocAttachTypeScript(t *testing.T) {
	checkDocs(t, "a.ts", []docCase{
		{"decorator after doc", `
class C {
  /** Loads the user record. */
  @memo()
  load(id: string): void {}
}
`, "load", "Loads the user record"},
		{"blank line", "/** Loads the user record. */\n\nexport function load(id: string): void {}\n", "load", "Loads the user record"},
		{"interface method", "interface I {\n  /** Loads the user record. */\n  load(id: string): void\n}\n", "I", ""},
	})
}

func TestDocAttachPython(t *testing.T) {
	checkDocs(t, "a.py", []docCase{
		{"docstring", "def f(x):\n    \"\"\"Return the square of x.\"\"\"\n    return x * x\n", "f", "square of x"},
		{"hash block", "# Return the square of x.\n# Fast path.\ndef f(x):\n    return x * x\n", "f", "square of x"},
		{"hash block blank line", "import os\n\n# Return the square of x.\n\ndef f(x):\n    return x * x\n", "f", "square of x"},
		{"decorated hash block", "# Return the square of x.\n@cache\ndef f(x):\n    return x * x\n", "f", "square of x"},
		{"decorated docstring", "@cache\ndef f(x):\n    \"\"\"Return the square of x.\"\"\"\n    return x * x\n", "f", "square of x"},
		{"method hash block", "class C:\n    # Return the square of x.\n    def f(self, x):\n        return x * x\n", "f", "square of x"},
		{"class docstring", "class C:\n    \"\"\"A cache of squares.\"\"\"\n    pass\n", "C", "cache of squares"},
		{"code between", "# About y.\ny = 2\n\ndef f(x):\n    return x * x\n", "f", ""},
		{"shebang header", "#!/usr/bin/env python3\n# Copyright Someone.\n\ndef f(x):\n    return x * x\n", "f", ""},
	})
}

func TestDocAttachJava(t *testing.T) {
	checkDocs(t, "A.java", []docCase{
		{"javadoc", "class A {\n  /** Returns the size of the queue. */\n  int size() { return 0; }\n}\n", "size", "size of the queue"},
		{"annotation after doc", "class A {\n  /**\n   * Returns the size of the queue.\n   */\n  @Override\n  @Deprecated\n  public int size() { return 0; }\n}\n", "size", "size of the queue"},
		{"blank line", "class A {\n  /** Returns the size of the queue. */\n\n  int size() { return 0; }\n}\n", "size", "size of the queue"},
		{"class", "/** A bounded queue. */\n\npublic class A {}\n", "A", "bounded queue"},
		{"field between", "class A {\n  /** The count. */\n  int n;\n\n  int size() { return 0; }\n}\n", "size", ""},
	})
}

func TestDocAttachRust(t *testing.T) {
	checkDocs(t, "a.rs", []docCase{
		{"triple slash", "/// Parses the header.\nfn parse() {}\n", "parse", "Parses the header"},
		{"attribute after doc", "/// Parses the header.\n#[inline]\n#[must_use]\npub fn parse() -> u8 { 0 }\n", "parse", "Parses the header"},
		{"attribute before doc", "#[inline]\n/// Parses the header.\npub fn parse() -> u8 { 0 }\n", "parse", "Parses the header"},
		{"blank line", "/// Parses the header.\n\nfn parse() {}\n", "parse", "Parses the header"},
		{"block doc", "/** Parses the header. */\nfn parse() {}\n", "parse", "Parses the header"},
		{"plain comment", "// TODO: speed up.\nfn parse() {}\n", "parse", ""},
		{"impl method", "struct S;\nimpl S {\n    /// Parses the header.\n    pub fn parse(&self) {}\n}\n", "parse", "Parses the header"},
		{"inner doc of module", "mod m {\n    //! Header parsing.\n    fn parse() {}\n}\n", "m", "Header parsing"},
		{"inner doc not the fn's", "mod m {\n    //! Header parsing.\n\n    fn parse() {}\n}\n", "parse", ""},
	})
	f := Split("lib.rs", []byte("//! Header parsing for the wire format.\n\nfn parse() {}\n"))
	if !strings.Contains(f.Chunks[0].Doc, "Header parsing") {
		t.Errorf("file doc %q: want the //! comment", f.Chunks[0].Doc)
	}
}

func TestDocAttachRuby(t *testing.T) {
	checkDocs(t, "a.rb", []docCase{
		{"hash block", "class A\n  # Returns the parsed URI.\n  # @return [URI]\n  def parse\n  end\nend\n", "parse", "parsed URI"},
		{"blank line", "class A\n  # Returns the parsed URI.\n\n  def parse\n  end\nend\n", "parse", "parsed URI"},
		{"begin end", "=begin\nReturns the parsed URI.\n=end\ndef parse\nend\n", "parse", "parsed URI"},
		{"module first class", "module M\n  # A parser of URIs.\n  class Parser\n  end\nend\n", "Parser", "parser of URIs"},
		{"singleton method", "class A\n  # Returns the parsed URI.\n  def self.parse\n  end\nend\n", "self.parse", "parsed URI"},
		{"code between", "class A\n  # About X.\n  X = 1\n\n  def parse\n  end\nend\n", "parse", ""},
	})
}

func TestDocAttachKotlin(t *testing.T) {
	checkDocs(t, "a.kt", []docCase{
		{"kdoc", "/** Returns the sum of the list. */\nfun sum(xs: List<Int>): Int = 0\n", "sum", "sum of the list"},
		{"annotation", "class A {\n  /** Returns the sum of the list. */\n  @JvmStatic\n  fun sum(xs: List<Int>): Int = 0\n}\n", "sum", "sum of the list"},
		{"blank line", "/** Returns the sum of the list. */\n\nfun sum(xs: List<Int>): Int = 0\n", "sum", "sum of the list"},
		{"after imports", "import a.b\n\n/** Returns the sum of the list. */\nfun sum(xs: List<Int>): Int = 0\n", "sum", "sum of the list"},
	})
}

func TestDocAttachCSharp(t *testing.T) {
	checkDocs(t, "A.cs", []docCase{
		{"xml doc", "class A {\n  /// <summary>Returns the sum of the list.</summary>\n  int Sum() { return 0; }\n}\n", "Sum", "Returns the sum of the list"},
		{"attribute", "class A {\n  /// <summary>\n  /// Returns the sum of the list.\n  /// </summary>\n  [Obsolete]\n  public int Sum() { return 0; }\n}\n", "Sum", "Returns the sum of the list"},
		{"blank line", "class A {\n  /// <summary>Returns the sum of the list.</summary>\n\n  int Sum() { return 0; }\n}\n", "Sum", "Returns the sum of the list"},
	})
	f := Split("A.cs", []byte("class A {\n  /// <summary>Returns the sum.</summary>\n  int Sum() { return 0; }\n}\n"))
	for _, c := range f.Chunks {
		if c.Name == "Sum" && strings.Contains(c.Doc, "<summary>") {
			t.Errorf("doc %q keeps XML tags", c.Doc)
		}
	}
}

func TestDocAttachPHP(t *testing.T) {
	checkDocs(t, "a.php", []docCase{
		{"docblock", "<?php\n/**\n * Returns the slug of a title.\n */\nfunction slug($t) { return $t; }\n", "slug", "slug of a title"},
		{"method", "<?php\nclass A {\n    /**\n     * Returns the slug of a title.\n     */\n    public function slug($t) { return $t; }\n}\n", "slug", "slug of a title"},
		{"attribute", "<?php\nclass A {\n    /** Returns the slug of a title. */\n    #[Pure]\n    public function slug($t) { return $t; }\n}\n", "slug", "slug of a title"},
		{"blank line", "<?php\n/** Returns the slug of a title. */\n\nfunction slug($t) { return $t; }\n", "slug", "slug of a title"},
	})
}

func TestDocAttachSwift(t *testing.T) {
	checkDocs(t, "a.swift", []docCase{
		{"triple slash", "/// Returns the sum of the list.\nfunc sum(_ xs: [Int]) -> Int { return 0 }\n", "sum", "sum of the list"},
		{"block", "/** Returns the sum of the list. */\nfunc sum(_ xs: [Int]) -> Int { return 0 }\n", "sum", "sum of the list"},
		{"attribute", "class A {\n  /// Returns the sum of the list.\n  @discardableResult\n  func sum(_ xs: [Int]) -> Int { return 0 }\n}\n", "sum", "sum of the list"},
		{"blank line", "/// Returns the sum of the list.\n\nfunc sum(_ xs: [Int]) -> Int { return 0 }\n", "sum", "sum of the list"},
	})
}
