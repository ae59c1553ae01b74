package main

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
		if got := firstSentence(in); got != want {
			t.Errorf("firstSentence(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestStrip(t *testing.T) {
	if got := stripLeadingComments("// Doc.\n/* more */\nfunc f() {}"); got != "func f() {}" {
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

func TestReserved(t *testing.T) {
	for _, n := range []string{"github.com/spf13/cobra", "github.com/gin-gonic/gin/v2", "python3-requests", "python3-click", "commander", "github.com/google/gson"} {
		if !isReserved(n) {
			t.Errorf("%s is not reserved", n)
		}
	}
	for _, n := range []string{"github.com/spf13/viper", "python3-jinja2", "lodash", "commander-extra"} {
		if isReserved(n) {
			t.Errorf("%s is reserved", n)
		}
	}
	srcs, err := readSources("sources.txt")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range srcs {
		if s.Version == "latest" {
			t.Errorf("%s is not pinned", s)
		}
	}
}
