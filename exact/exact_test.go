package exact

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// lines runs m over content and renders each matching line as
// "N:text[spans]".
func lines(m *Matcher, content string) []string {
	var out []string
	m.Lines([]byte(content), func(l Line) bool {
		out = append(out, fmt.Sprintf("%d:%s%v", l.Number, content[l.Start:l.End], l.Spans))
		return true
	})
	return out
}

func mustCompile(t *testing.T, o Options, patterns ...string) *Matcher {
	t.Helper()
	m, err := Compile(patterns, o)
	if err != nil {
		t.Fatalf("Compile(%q): %v", patterns, err)
	}
	return m
}

// TestLines: line numbers, bounds, spans, CRLF and a last line without
// '\n'; no match crosses a line; text anchors act on the rest of the
// file, as git grep's look-ahead gives it to the engine.
func TestLines(t *testing.T) {
	content := "foo bar\r\nbaz\nfoo\n\nlast foo"
	for _, c := range []struct {
		pats []string
		o    Options
		want []string
	}{
		{[]string{"foo"}, Options{}, []string{"1:foo bar\r[[0 3]]", "3:foo[[0 3]]", "5:last foo[[5 8]]"}},
		{[]string{"foo"}, Options{Fixed: true}, []string{"1:foo bar\r[[0 3]]", "3:foo[[0 3]]", "5:last foo[[5 8]]"}},
		{[]string{`r\r$`}, Options{}, []string{"1:foo bar\r[[6 8]]"}},
		{[]string{`^$`}, Options{}, []string{"4:[]"}},
		{[]string{`\Afoo\z`}, Options{}, nil},
		{[]string{`\Afoo`}, Options{}, []string{"1:foo bar\r[[0 3]]"}},
		{[]string{`foo\z`}, Options{}, []string{"5:last foo[[5 8]]"}},
		{[]string{`bar\s+baz`, `r[^x]baz`, `(?s)r.*baz`, `r\nbaz`, `[\n]`}, Options{}, nil},
		{[]string{"BAZ", "o b"}, Options{IgnoreCase: true}, []string{"1:foo bar\r[[2 5]]", "2:baz[[0 3]]"}},
		{[]string{"o", "oo"}, Options{}, []string{"1:foo bar\r[[1 3]]", "3:foo[[1 3]]", "5:last foo[[6 8]]"}},
		{[]string{"baz\nlast"}, Options{Fixed: true}, []string{"2:baz[[0 3]]", "5:last foo[[0 4]]"}},
	} {
		m := mustCompile(t, c.o, c.pats...)
		if got := lines(m, content); !slices.Equal(got, c.want) {
			t.Errorf("%q %+v: got %q, want %q", c.pats, c.o, got, c.want)
		}
		if n := m.CountLines([]byte(content)); n != len(c.want) {
			t.Errorf("%q %+v: CountLines %d, want %d", c.pats, c.o, n, len(c.want))
		}
		if m.Match([]byte(content)) != (len(c.want) > 0) {
			t.Errorf("%q %+v: Match is %v", c.pats, c.o, !(len(c.want) > 0))
		}
	}
}

// TestEmpty: an empty pattern matches every line, and an empty file or the
// place after a final '\n' is no line.
func TestEmpty(t *testing.T) {
	for _, o := range []Options{{}, {Fixed: true}, {IgnoreCase: true}} {
		m := mustCompile(t, o, "")
		if n := m.CountLines([]byte("a\n\nb\n")); n != 3 {
			t.Errorf("%+v: %d lines, want 3", o, n)
		}
		if m.Match(nil) {
			t.Errorf("%+v: an empty file matches", o)
		}
		if n := mustCompile(t, Options{Word: true, Fixed: o.Fixed}, "").CountLines([]byte("a\n\nb\n")); n != 0 {
			t.Errorf("-w '': %d lines, want 0", n)
		}
	}
	if n := mustCompile(t, Options{}, `^$`, `x*$`).CountLines([]byte("a\n")); n != 1 {
		t.Errorf("'^$' on \"a\\n\": %d lines, want 1", n)
	}
}

// TestWord: git's -w rule, its retry after a failed first match, and the
// retry's REG_NOTBOL.
func TestWord(t *testing.T) {
	w := Options{Word: true}
	for _, c := range []struct {
		pat     string
		o       Options
		content string
		want    []string
	}{
		{"foo", w, "foo_bar foo", []string{"1:foo_bar foo[[8 11]]"}},
		{"foo", Options{Word: true, Fixed: true}, "foo_bar foo", []string{"1:foo_bar foo[[8 11]]"}},
		{"FOO", Options{Word: true, IgnoreCase: true}, "foo_bar Foo", []string{"1:foo_bar Foo[[8 11]]"}},
		{"foo", w, "foobar\nxfoo\nfoo-x", []string{"3:foo-x[[0 3]]"}},
		{"^foo", w, "foo_x foo", nil}, // ^ fails on the retry
		{"^foo", w, "foo x foo", []string{"1:foo x foo[[0 3]]"}},
		{`o*`, w, "x o", []string{"1:x o[[2 3]]"}}, // the empty match at 0 fails; the retry skips "x"
		{`a.`, w, "aab ab", []string{"1:aab ab[[4 6]]"}},
		{`\bb`, w, "ab b", []string{"1:ab b[[3 4]]"}},
		{"é", w, "xé é", []string{"1:xé é[[4 6]]"}}, // 'x' before the first é is a word byte
	} {
		if got := lines(mustCompile(t, c.o, c.pat), c.content); !slices.Equal(got, c.want) {
			t.Errorf("-w %q on %q: got %q, want %q", c.pat, c.content, got, c.want)
		}
	}
}

// TestPatternError: the message names the pattern and the offset, with a
// hint for what RE2 lacks.
func TestPatternError(t *testing.T) {
	for _, c := range []struct{ pat, want string }{
		{"a(b", `invalid pattern "a(b": missing closing ) at offset 1`},
		{"a)b", `invalid pattern "a)b": unexpected ) at offset 1`},
		{"[(]a(b", `invalid pattern "[(]a(b": missing closing ) at offset 4`},
		{"ab[c-", `invalid pattern "ab[c-": missing closing ] at offset 2`},
		{"a**", `invalid pattern "a**": invalid nested repetition operator at offset 1`},
		{"ab\xff", `invalid pattern "ab\xff": invalid UTF-8 at offset 2`},
	} {
		_, err := Compile([]string{"ok", c.pat}, Options{})
		var pe *PatternError
		if !errors.As(err, &pe) {
			t.Fatalf("%q: error %v is no *PatternError", c.pat, err)
		}
		if got, _, _ := strings.Cut(err.Error(), "\n"); got != c.want {
			t.Errorf("%q: got %q, want %q", c.pat, got, c.want)
		}
	}
	_, err := Compile([]string{`a**`}, Options{})
	if !strings.Contains(err.Error(), "hint: patterns are RE2") {
		t.Errorf("no hint in %q", err)
	}
	if _, err := Compile(nil, Options{}); err == nil {
		t.Error("no error for no pattern")
	}
	if _, err := Compile([]string{"a(b", "ab\xff"}, Options{Fixed: true}); err != nil {
		t.Errorf("-F: %v", err)
	}
}

// TestFixedInvalidUTF8: -F matches bytes that are not UTF-8, with -i too.
func TestFixedInvalidUTF8(t *testing.T) {
	content := "A\xffB\nx\xffb\n"
	if got := lines(mustCompile(t, Options{Fixed: true}, "\xffb"), content); !slices.Equal(got, []string{"2:x\xffb[[1 3]]"}) {
		t.Errorf("-F: %q", got)
	}
	if n := mustCompile(t, Options{Fixed: true, IgnoreCase: true}, "a\xffb").CountLines([]byte(content)); n != 1 {
		t.Errorf("-F -i: %d lines, want 1", n)
	}
}

// TestLongLine: a 5 MB line is scanned in linear time by every kind of
// pattern (a quadratic scan would not finish within the test's time).
func TestLongLine(t *testing.T) {
	line := strings.Repeat("abc_def ghi(jkl) ", 5<<20/17) + "needle"
	for _, c := range []struct {
		pat string
		o   Options
	}{
		{"needle", Options{}}, {"NEEDLE", Options{IgnoreCase: true}}, {"needle", Options{Fixed: true, Word: true}},
		{`\w+\(\w+\) needle$`, Options{}}, {`(a|b)*c.*needle`, Options{}}, {`needle`, Options{Word: true, IgnoreCase: true}},
	} {
		m := mustCompile(t, c.o, c.pat)
		if n := m.CountLines([]byte(line)); n != 1 {
			t.Errorf("%q %+v: %d lines, want 1", c.pat, c.o, n)
		}
	}
	// -w over a line of near misses retries at every word.
	near := []byte(strings.Repeat("abc_ ", 1<<20))
	for _, p := range []string{"abc", "ab[c]"} {
		if n := mustCompile(t, Options{Word: true}, p).CountLines(near); n != 0 {
			t.Errorf("-w %s: %d lines, want 0", p, n)
		}
	}
	// Many matching lines: each search for the next one must not copy the
	// rest of the file.
	many := []byte(strings.Repeat("ab1\n", 1<<20))
	if n := mustCompile(t, Options{}, "[a-z]+[0-9]").CountLines(many); n != 1<<20 {
		t.Errorf("[a-z]+[0-9]: %d lines, want %d", n, 1<<20)
	}
}

// TestConcurrent: one Matcher serves several goroutines at once, with the
// answers it gives one at a time.
func TestConcurrent(t *testing.T) {
	files := moduleFiles(t, false)
	m := mustCompile(t, Options{Word: true}, `[A-Z]\w+Error`, "hash", `func \w+\(`)
	count := func() int {
		n := 0
		for _, f := range files {
			n += m.CountLines(f.content)
		}
		return n
	}
	want := count()
	got := make(chan int)
	for range 4 {
		go func() { got <- count() }()
	}
	for range 4 {
		if n := <-got; n != want {
			t.Errorf("concurrent count %d, alone %d", n, want)
		}
	}
	if want == 0 {
		t.Error("nothing matches")
	}
}
