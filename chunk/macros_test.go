package chunk

import (
	"strings"
	"testing"

	"github.com/bcindex/bcindex/chunk/vocab"
)

func TestBlankMacroLines(t *testing.T) {
	tests := []struct {
		name, src string
		blank     []string // lines blanked; every other line is kept
	}{
		{"namespace macros", "namespace absl {\nABSL_NAMESPACE_BEGIN\n\nint f() { return 1; }\n\nABSL_NAMESPACE_END\n}  // namespace absl\n", []string{"ABSL_NAMESPACE_BEGIN", "ABSL_NAMESPACE_END"}},
		{"with arguments and a comment", "class W {\n  DISALLOW_COPY(W)  // no copies\n  int x;\n};\n", []string{"  DISALLOW_COPY(W)  // no copies"}},
		{"an enum's last member", "enum Color {\n  RED,\n  COLOR_MAX\n};\n", nil},
		{"an operand", "int x = a +\n    SOME_VALUE;\n", nil},
		{"a statement", "void f() {\n  LOG_FATAL(x);\n}\n", nil},
		{"a macro body", "#define F(x) \\\n  DO_THING(x)\n", nil},
		{"a call with a string", "ABSL_DEPRECATED(\"use g\")\nvoid f();\n", nil},
		{"no underscore", "FOO\nint f();\n", nil},
		{"lower case", "my_macro\nint f();\n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := []byte(tt.src)
			got := blankMacroLines(src)
			if len(got) != len(src) {
				t.Fatalf("length %d, want %d", len(got), len(src))
			}
			if string(src) != tt.src {
				t.Fatal("the input was changed")
			}
			want := tt.src
			for _, l := range tt.blank {
				want = strings.Replace(want, l, strings.Repeat(" ", len(l)), 1)
			}
			if string(got) != want {
				t.Errorf("got\n%q\nwant\n%q", got, want)
			}
			if tt.blank == nil && &got[0] != &src[0] {
				t.Error("a file with no macro line was copied")
			}
		})
	}
}

// A macro line above a definition no longer hides it from the parser: the
// definitions are well-formed chunks whose text is the file's own.
func TestMacroLinesKeepDefinitions(t *testing.T) {
	src := "#include <cstddef>\n\nnamespace absl {\nABSL_NAMESPACE_BEGIN\n\nbool EqualsIgnoreCase(const char* a, const char* b) {\n  return a == b;\n}\n\nbool StartsWith(const char* a, const char* b) {\n  return a == b;\n}\n\nABSL_NAMESPACE_END\n}  // namespace absl\n"
	for _, p := range []string{"match.cc", "match.h"} {
		f := Split(p, []byte(src))
		checkInvariants(t, []byte(src), f)
		if f.SyntaxErrors != 0 {
			t.Errorf("%s: %d syntax errors:\n%s", p, f.SyntaxErrors, render(f))
		}
		for _, name := range []string{"EqualsIgnoreCase", "StartsWith"} {
			i := chunkNamed(f, name)
			if i < 0 || f.Chunks[i].SyntaxError {
				t.Errorf("%s: %s is not a well-formed chunk:\n%s", p, name, render(f))
			}
		}
		if !strings.Contains(vocab.IndexText([]byte(src), f, 0), "ABSL_NAMESPACE_BEGIN") {
			t.Errorf("%s: the file chunk's text lost the macro line", p)
		}
	}
}
