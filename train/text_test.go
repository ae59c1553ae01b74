package train

import "testing"

func TestFirstSentence(t *testing.T) {
	tests := map[string]string{
		"Split slices s into substrings. It returns a slice.":                 "Split slices s into substrings",
		"Returns the {@code String} form.\n@param x the x":                    "Returns the String form",
		"Read a file, e.g. a config.\n\nMore.":                                "Read a file, e.g. a config",
		"@name addDays\n@summary Add the specified number of days.\n@param x": "Add the specified number of days",
		"TODO: fix this":                         "",
		"Use :func:`os.open` to open\n the file": "Use os.open to open the file",
	}
	for in, want := range tests {
		if got := FirstSentence(in); got != want {
			t.Errorf("FirstSentence(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestStrip(t *testing.T) {
	if got := stripLeadingComments("// Doc.\n/* more */\nfunc f() {}", false); got != "func f() {}" {
		t.Errorf("stripLeadingComments: %q", got)
	}
	py := "def f(x):\n    \"\"\"Doc\n    more.\"\"\"\n    return x\n"
	if got := stripDocstring(py); got != "def f(x):\n    \n    return x\n" {
		t.Errorf("stripDocstring: %q", got)
	}
	py2 := "def f(x):\n    'Doc.'\n    return x\n"
	if got := stripDocstring(py2); got != "def f(x):\n    \n    return x\n" {
		t.Errorf("stripDocstring: %q", got)
	}
}
