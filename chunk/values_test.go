package chunk

import (
	"fmt"
	"testing"
)

// TestNamedValuesAreSymbols: every named top-level definition is a chunk of
// the right kind in every language that has one of these forms: constants,
// variables, macros and enum members, one-liners included.
func TestNamedValuesAreSymbols(t *testing.T) {
	cases := []struct {
		path, src string
		want      []string // "kind name"
		not       []string // names that must not be chunks
	}{
		{"kv.go", "package kv\n\nimport \"errors\"\n\n// ErrKeyNotFound is returned for a missing key.\nvar ErrKeyNotFound = errors.New(\"key not found\")\n\nconst bitDelete byte = 1 << 0\n\nconst (\n\tmaxVlogFileSize = 2 << 30\n\tupperhex        = \"0123456789ABCDEF\"\n)\n\nvar (\n\tdefaultMaxParams = 10000\n)\n\nfunc f() {\n\tvar local = 1\n\t_ = local\n}\n",
			[]string{"var ErrKeyNotFound", "const bitDelete", "const maxVlogFileSize", "const upperhex", "var defaultMaxParams", "function f"}, []string{"local"}},
		{"conf.py", "\"\"\"Settings.\"\"\"\n\nMAX_RETRIES = 3\nlogger = make_logger(__name__)\n\n\ndef f():\n    inner = 2\n    return inner\n",
			[]string{"const MAX_RETRIES", "var logger", "function f"}, []string{"inner"}},
		{"app.js", "const LIMIT = 10;\nlet counter = 0;\nvar name = 'x';\nexport const ready = true;\nfunction g() { const inner = 1; return inner; }\n",
			[]string{"const LIMIT", "var counter", "var name", "const ready", "function g"}, []string{"inner"}},
		{"app.ts", "export const API_URL: string = 'https://example.com';\nenum Color { Red, Green = 2 }\n",
			[]string{"const API_URL", "enum Color", "const Red", "const Green"}, nil},
		{"lib.rb", "VERSION = \"1.0\"\nmodule Store\n  LIMIT = 3\n  class Item\n    NAME = \"item\"\n    def size\n      local = 1\n    end\n  end\nend\n",
			[]string{"const VERSION", "const LIMIT", "const NAME", "method size"}, []string{"local"}},
		{"A.java", "class A {\n  public static final int MAX = 3;\n  static int count;\n  private int size;\n  enum Mode { FAST, SLOW }\n}\ninterface I { int K = 1; }\n",
			[]string{"const MAX", "const K", "enum Mode", "const FAST", "const SLOW"}, []string{"count", "size"}},
		{"lib.rs", "pub const MAX: usize = 3;\nstatic GREETING: &str = \"hi\";\npub enum Shape { Circle, Square(u32) }\nfn f() { let local = 1; }\n",
			[]string{"const MAX", "var GREETING", "enum Shape", "const Circle", "const Square", "function f"}, []string{"local"}},
		{"m.c", "#define MAX 10\n#define SQ(x) ((x)*(x))\nstatic const int limit = 5;\nint counter = 0;\nextern int ext;\nint f(int);\nenum color { RED, GREEN = 2 };\nint g(void) { int local = 1; return local; }\n",
			[]string{"const MAX", "function SQ", "const limit", "var counter", "const RED", "const GREEN", "function g"}, []string{"ext", "local", "f"}},
	}
	for _, c := range cases {
		t.Run(c.path, func(t *testing.T) {
			f := Split(c.path, []byte(c.src))
			have := map[string]bool{}
			names := map[string]bool{}
			for _, ch := range f.Chunks[1:] {
				have[ch.Kind+" "+ch.Name] = true
				names[ch.Name] = true
			}
			for _, w := range c.want {
				if !have[w] {
					t.Errorf("no chunk %q; chunks: %v", w, kindsNames(f))
				}
			}
			for _, n := range c.not {
				if names[n] {
					t.Errorf("%q is a chunk; chunks: %v", n, kindsNames(f))
				}
			}
		})
	}
}

func kindsNames(f File) []string {
	var out []string
	for _, ch := range f.Chunks[1:] {
		out = append(out, fmt.Sprintf("%s %s", ch.Kind, ch.Name))
	}
	return out
}
