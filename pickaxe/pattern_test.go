package pickaxe

import "testing"

// TestCount checks the counting rules of git's contains() that the
// history tests may not reach.
func TestCount(t *testing.T) {
	cases := []struct {
		p       Pattern
		content string
		want    int
	}{
		{Pattern{Text: "aa"}, "aaaa", 2},                       // non-overlapping
		{Pattern{Text: "AB", IgnoreCase: true}, "ab aB Ab", 3}, // ASCII folding
		{Pattern{Text: "é", IgnoreCase: true}, "É é", 2},       // non-ASCII: through a regex
		{Pattern{Text: "x"}, "", 0},                            // nothing in an empty blob
		{Pattern{Text: "^ab", Regex: true}, "abab\nab", 2},     // '^' after a match: only at a line start
		{Pattern{Text: "^", Regex: true}, "a\nb\n", 3},         // as git counts it: the last after the final newline
		{Pattern{Text: "^", Regex: true}, "a\nb\nc", 3},
		{Pattern{Text: "a*", Regex: true}, "aab", 2},            // "aa", then the empty match before b
		{Pattern{Text: "b$", Regex: true}, "ab\nb", 2},          // '$' at line ends
		{Pattern{Text: "a[^x]b", Regex: true}, "a\nb ayb", 1},   // [^x] never matches a newline
		{Pattern{Text: "a.b", Regex: true}, "a\nb", 0},          // nor does '.'
		{Pattern{Text: `\<ab\>`, Regex: true}, "ab cab ab_", 1}, // GNU word anchors
		{Pattern{Text: "(a|ab)c", Regex: true}, "abc abc", 2},   // leftmost-longest
		{Pattern{Text: "ABC", Regex: true, IgnoreCase: true}, "abc", 1},
	}
	for _, c := range cases {
		m, err := Compile(c.p)
		if err != nil {
			t.Fatalf("%+v: %v", c.p, err)
		}
		if got := m.Count([]byte(c.content)); got != c.want {
			t.Errorf("%+v in %q: %d, want %d", c.p, c.content, got, c.want)
		}
	}
	if _, err := Compile(Pattern{}); err != ErrEmptyPattern {
		t.Errorf("empty pattern: %v", err)
	}
	if _, err := Compile(Pattern{Text: "a(", Regex: true}); err == nil {
		t.Error("a( compiled")
	}
}
