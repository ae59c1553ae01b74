package chunk

import (
	"strings"
	"testing"

	"github.com/bcindex/bcindex/chunk/vocab"
)

// recoverCases are, per language with a grammar, a file with a well-formed
// definition, a broken one and two well-formed ones after it. The broken
// one comes in two kinds: an unclosed block, which a parser reads as
// swallowing everything after it, and garbage inside a body.
var recoverCases = []struct {
	path       string
	src        string
	brokenLine string   // the broken definition's first line
	good       []string // definitions that must be their own chunks
}{
	{"unclosed.go", "package p\n\nfunc Alpha() int {\n\treturn 1\n}\n\nfunc Broken() {\n\tif x {\n\t\treturn\n}\n\nfunc Gamma() int {\n\treturn 3\n}\n\n// Delta is documented.\nfunc Delta() {\n\tGamma()\n}\n", "func Broken() {", []string{"Alpha", "Gamma", "Delta"}},
	{"garbage.go", "package p\n\nfunc Alpha() int {\n\treturn 1\n}\n\nfunc Broken() {\n\tx := := 3 @@\n\tcall(\n}\n\nfunc Gamma() int {\n\treturn 3\n}\n\nfunc Delta() {\n\tGamma()\n}\n", "func Broken() {", []string{"Alpha", "Gamma", "Delta"}},
	{"unclosed.py", "def alpha():\n    return 1\n\ndef broken():\n    x = call(1,\n    return x\n\ndef gamma():\n    return 3\n\nclass Delta:\n    def m(self):\n        return 4\n", "def broken():", []string{"alpha", "gamma", "Delta"}},
	{"unclosed.js", "function alpha() {\n  return 1;\n}\n\nfunction broken() {\n  if (x) {\n    return;\n}\n\nfunction gamma() {\n  return 3;\n}\n\nclass Delta {\n  m() { return 4; }\n}\n", "function broken() {", []string{"alpha", "gamma", "Delta"}},
	{"unclosed.ts", "function alpha(): number {\n  return 1;\n}\n\nfunction broken(): void {\n  if (x) {\n    return;\n}\n\nfunction gamma(): number {\n  return 3;\n}\n\ninterface Delta {\n  m(): number;\n}\n", "function broken(): void {", []string{"alpha", "gamma", "Delta"}},
	{"unclosed.tsx", "function alpha() {\n  return <div/>;\n}\n\nfunction broken() {\n  if (x) {\n    return;\n}\n\nfunction gamma() {\n  return 3;\n}\n\nfunction Delta() {\n  return <span/>;\n}\n", "function broken() {", []string{"alpha", "gamma", "Delta"}},
	{"Unclosed.java", "class Outer {\n  int alpha() {\n    return 1;\n  }\n\n  void broken() {\n    if (x) {\n      return;\n  }\n\n  int gamma() {\n    return 3;\n  }\n\n  void delta() {\n    gamma();\n  }\n}\n", "  void broken() {", []string{"alpha", "gamma", "delta"}},
	{"unclosed.rs", "fn alpha() -> i32 {\n    1\n}\n\nfn broken() {\n    if x {\n        return;\n}\n\nfn gamma() -> i32 {\n    3\n}\n\nstruct Delta {\n    a: i32,\n}\n", "fn broken() {", []string{"alpha", "gamma", "Delta"}},
	{"unclosed.c", "int alpha(void) {\n    return 1;\n}\n\nvoid broken(void) {\n    if (x) {\n        return;\n}\n\nint gamma(void) {\n    return 3;\n}\n\nstruct delta {\n    int a;\n};\n", "void broken(void) {", []string{"alpha", "gamma", "delta"}},
	{"unclosed.cpp", "int alpha() {\n    return 1;\n}\n\nvoid broken() {\n    if (x) {\n        return;\n}\n\nint gamma() {\n    return 3;\n}\n\nclass Delta {\n  int a;\n};\n", "void broken() {", []string{"alpha", "gamma", "Delta"}},
	{"Unclosed.cs", "class Outer {\n  int Alpha() {\n    return 1;\n  }\n\n  void Broken() {\n    if (x) {\n      return;\n  }\n\n  int Gamma() {\n    return 3;\n  }\n\n  void Delta() {\n    Gamma();\n  }\n}\n", "  void Broken() {", []string{"Alpha", "Gamma", "Delta"}},
	{"unclosed.rb", "def alpha\n  1\nend\n\ndef broken\n  if x\n    return\nend\n\ndef gamma\n  3\nend\n\nclass Delta\n  def m\n    4\n  end\nend\n", "def broken", []string{"alpha", "gamma", "Delta"}},
	{"unclosed.php", "<?php\nfunction alpha() {\n    return 1;\n}\n\nfunction broken() {\n    if ($x) {\n        return;\n}\n\nfunction gamma() {\n    return 3;\n}\n\nclass Delta {\n    function m() { return 4; }\n}\n", "function broken() {", []string{"alpha", "gamma", "Delta"}},
	{"unclosed.kt", "fun alpha(): Int {\n    return 1\n}\n\nfun broken() {\n    if (x) {\n        return\n}\n\nfun gamma(): Int {\n    return 3\n}\n\nclass Delta {\n    fun m() = 4\n}\n", "fun broken() {", []string{"alpha", "gamma", "Delta"}},
	{"unclosed.scala", "object O {\n  def alpha(): Int = {\n    1\n  }\n\n  def broken(): Unit = {\n    if (x) {\n      return\n  }\n\n  def gamma(): Int = {\n    3\n  }\n\n  def delta(): Int = {\n    4\n  }\n}\n", "  def broken(): Unit = {", []string{"alpha", "gamma", "delta"}},
	{"unclosed.swift", "func alpha() -> Int {\n    return 1\n}\n\nfunc broken() {\n    if x {\n        return\n}\n\nfunc gamma() -> Int {\n    return 3\n}\n\nclass Delta {\n    func m() -> Int { return 4 }\n}\n", "func broken() {", []string{"alpha", "gamma", "Delta"}},
	{"unclosed.sh", "alpha() {\n  echo 1\n}\n\nbroken() {\n  if [ -n \"$x\" ]; then\n    echo 2\n}\n\ngamma() {\n  echo 3\n}\n\ndelta() {\n  gamma\n}\n", "broken() {", []string{"alpha", "gamma", "delta"}},
	{"unclosed.lua", "function alpha()\n  return 1\nend\n\nfunction broken()\n  if x then\n    return 2\nend\n\nfunction gamma()\n  return 3\nend\n\nfunction delta()\n  return gamma()\nend\n", "function broken()", []string{"alpha", "gamma", "delta"}},
	{"unclosed.ml", "let alpha () =\n  1\n\nlet broken () =\n  (match x with\n  | 1 -> 2\n\nlet gamma () =\n  3\n\nlet delta () =\n  gamma ()\n", "let broken () =", []string{"alpha", "gamma", "delta"}},
	{"unclosed.proto", "syntax = \"proto3\";\n\nmessage Alpha {\n  int32 a = 1;\n}\n\nmessage Broken {\n  int32 b = ;\n\nmessage Gamma {\n  int32 c = 1;\n}\n\nmessage Delta {\n  int32 d = 1;\n}\n", "message Broken {", []string{"Alpha", "Gamma", "Delta"}},
	{"unclosed.sql", "CREATE TABLE alpha (\n  id INT\n);\n\nCREATE TABLE broken (\n  id INT,\n\nCREATE TABLE gamma (\n  id INT\n);\n\nCREATE TABLE delta (\n  id INT\n);\n", "CREATE TABLE broken (", []string{"alpha", "gamma", "delta"}},
	{"unclosed.tf", "resource \"aws_s3_bucket\" \"alpha\" {\n  bucket = \"a\"\n}\n\nresource \"aws_s3_bucket\" \"broken\" {\n  bucket = [\n\nresource \"aws_s3_bucket\" \"gamma\" {\n  bucket = \"c\"\n}\n\nvariable \"delta\" {\n  default = 1\n}\n", "resource \"aws_s3_bucket\" \"broken\" {", []string{"gamma", "delta", "alpha"}},
	{"unclosed.ex", "defmodule M do\n  def alpha do\n    1\n  end\n\n  def broken do\n    if x do\n      2\n  end\n\n  def gamma do\n    3\n  end\n\n  def delta do\n    4\n  end\nend\n", "  def broken do", []string{"alpha", "gamma", "delta"}},
	{"Dockerfile", "FROM golang:1.26 AS alpha\nRUN go build\n\nFROM debian AS broken\nRUN [\"a\",\n\nFROM debian AS gamma\nCOPY --from=alpha /x /x\n\nFROM scratch AS delta\nCOPY --from=gamma /x /x\n", "FROM debian AS broken", []string{"alpha", "gamma", "delta"}},
}

// chunkNamed returns the chunk whose name is name or ends with "."+name
// (methods are named Type.method in some languages), or -1.
func chunkNamed(f File, name string) int {
	for i, c := range f.Chunks {
		if c.Kind == vocab.KindFile || c.Kind == vocab.KindWindow || c.Kind == vocab.KindBlock {
			continue
		}
		if c.Name == name || strings.HasSuffix(c.Name, "."+name) || strings.HasSuffix(c.Name, " "+name) {
			return i
		}
	}
	return -1
}

func TestRecoveryKeepsDefinitionsAfterBrokenOne(t *testing.T) {
	for _, tc := range recoverCases {
		t.Run(tc.path, func(t *testing.T) {
			src := []byte(tc.src)
			f := Split(tc.path, src)
			checkInvariants(t, src, f)
			if f.SyntaxErrors == 0 {
				t.Fatalf("the sample parses without errors: it tests nothing")
			}
			for _, name := range tc.good {
				i := chunkNamed(f, name)
				if i < 0 {
					t.Errorf("%s is not its own chunk:\n%s", name, render(f))
					continue
				}
				c := f.Chunks[i]
				if c.SyntaxError {
					t.Errorf("%s flagged SyntaxError: %+v", name, c)
				}
				// Its chunk is its own definition, holding neither another
				// good one nor the broken one.
				for _, other := range tc.good {
					if j := chunkNamed(f, other); j >= 0 && j != i && f.Chunks[j].StartByte < c.EndByte && c.StartByte < f.Chunks[j].EndByte {
						t.Errorf("the chunks of %s and %s overlap:\n%s", name, other, render(f))
					}
				}
				if b := strings.Index(tc.src, strings.TrimSpace(tc.brokenLine)); b >= c.StartByte && b < c.EndByte {
					t.Errorf("%s's chunk holds the broken definition:\n%s", name, tc.src[c.StartByte:c.EndByte])
				}
			}
			// The broken definition stays searchable, in a chunk that says
			// it does not parse.
			b := strings.Index(tc.src, strings.TrimSpace(tc.brokenLine))
			if b < 0 {
				t.Fatalf("the sample lacks %q", tc.brokenLine)
			}
			flagged := false
			for i, c := range f.Chunks {
				flagged = flagged || c.SyntaxError && c.StartByte <= b && b < c.EndByte && strings.Contains(vocab.IndexText(src, f, i), strings.TrimSpace(tc.brokenLine))
			}
			if !flagged {
				t.Errorf("no chunk flagged SyntaxError holds %q:\n%s", tc.brokenLine, render(f))
			}
		})
	}
}

// Recovery parses from lines in broken code only: around a small error, the
// lines of well-formed definitions, the lines continuing a comment and C
// preprocessor lines other than #define are no candidates.
func TestRecoveryCandidatesAreInBrokenCode(t *testing.T) {
	var b strings.Builder
	b.WriteString("// Copyright line one.\n// Copyright line two.\n\n#include <stdio.h>\n#include <string.h>\n\nint x = = 3;\n\n")
	for i := 0; i < 20; i++ {
		b.WriteString("// f" + string(rune('a'+i)) + " adds.\n// It returns the sum.\nint f" + string(rune('a'+i)) + "(int a) {\n    return a + 1;\n}\n\n")
	}
	b.WriteString("#define LIMIT 3\n")
	src := []byte(b.String())
	lang := vocab.DetectLanguage("x.c", src)
	f, ok := splitRanges(lang, "x.c", src, nil, parseBaseMicros)
	if f.SyntaxErrors == 0 || !ok {
		t.Fatalf("the sample should parse with an error: %d errors, ok %v", f.SyntaxErrors, ok)
	}
	r := &recoverer{lang: lang, path: "x.c", src: src, li: newLineIndex(src), base: parseBaseMicros}
	for _, c := range r.candidates(f, 0, false) {
		line := string(src[c.at:])
		line, _, _ = strings.Cut(line, "\n")
		if line != "int x = = 3;" {
			t.Errorf("candidate line %d %q is not in the broken code", r.li.line(c.at), line)
		}
	}
	for _, tc := range []struct {
		line string
		want bool
	}{
		{"// Copyright line one.", true},
		{"// Copyright line two.", false},
		{"#include <stdio.h>", false},
		{"#define LIMIT 3", true},
		{"int fa(int a) {", true},
	} {
		l := r.li.line(strings.Index(string(src), tc.line))
		if got := r.mayOpen(l); got != tc.want {
			t.Errorf("mayOpen(%q) = %v, want %v", tc.line, got, tc.want)
		}
	}
}
