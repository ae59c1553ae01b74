package exact

import (
	"slices"
	"testing"

	"github.com/google/codesearch/index"
)

// has is the predicate Eval takes, over Trigrams of content.
func has(content string) func(uint32) bool {
	ts := Trigrams([]byte(content), nil)
	return func(t uint32) bool {
		_, ok := slices.BinarySearch(ts, t)
		return ok
	}
}

// TestTrigrams: sorted, distinct, folded; appended after dst.
func TestTrigrams(t *testing.T) {
	got := Trigrams([]byte("AbcABC\xff"), []uint32{7})
	want := []uint32{7, trigram('a', 'b', 'c'), trigram('b', 'c', 'a'), trigram('b', 'c', 0xff), trigram('c', 'a', 'b')}
	if !slices.Equal(got, want) {
		t.Errorf("got %x, want %x", got, want)
	}
	if len(Trigrams([]byte("ab"), nil)) != 0 {
		t.Error("trigrams in two bytes")
	}
	// Enough distinct trigrams for the radix sort.
	var b []byte
	for i := range 5000 {
		b = append(b, byte(i*7), byte(i*13), byte(i>>3))
	}
	got = Trigrams(b, nil)
	var want2 []uint32
	for i := 0; i+3 <= len(b); i++ {
		want2 = append(want2, trigram(b[i], b[i+1], b[i+2]))
	}
	slices.Sort(want2)
	if want2 = slices.Compact(want2); !slices.Equal(got, want2) {
		t.Errorf("%d trigrams, want %d, or out of order", len(got), len(want2))
	}
}

// TestKelvin: with -i, "kelvin" matches the Kelvin sign and "sun" the long
// s, as Go's folding says; the files holding them satisfy the plan only
// because Trigrams also indexes a copy with them replaced.
func TestKelvin(t *testing.T) {
	for _, c := range []struct {
		pat, content string
		fixed        bool
	}{
		{"kelvin", "x \u212Aelvin y", false},
		{"KELVIN", "\u212Aelvin", true},
		{"sun", "long \u017Fun", false},
		{"s[t-v]n", "long \u017Fun", false},
		{"[j-l]elvin", "\u212AELVIN", false},
	} {
		m := mustCompile(t, Options{IgnoreCase: true, Fixed: c.fixed}, c.pat)
		if !m.Match([]byte(c.content)) {
			t.Errorf("-i %q does not match %q", c.pat, c.content)
		}
		if q := m.Query(); q.Op == All || !q.Eval(has(c.content)) {
			t.Errorf("-i %q: plan %v fails %q", c.pat, q, c.content)
		}
	}
	// Without the replaced copy the plan would fail: the trigrams of the
	// content as it is do not hold "kel".
	var plain []uint32
	plain = appendTrigrams([]byte("\u212Aelvin"), plain, make([]uint64, 1<<24/64))
	if slices.Contains(plain, trigram('k', 'e', 'l')) {
		t.Error("the Kelvin sign folds to k without the replaced copy")
	}
}

// TestPlan: patterns without a usable trigram plan All, patterns that
// match nothing plan None, and others plan their folded trigrams.
func TestPlan(t *testing.T) {
	for _, c := range []struct {
		pat  string
		o    Options
		want string
	}{
		{"", Options{}, "+"},
		{".", Options{}, "+"},
		{`\w+`, Options{}, "+"},
		{"^", Options{}, "+"},
		{"$", Options{}, "+"},
		{"ab", Options{Fixed: true}, "+"},
		{`a\nb`, Options{}, "-"},
		{"Hello", Options{}, `"ell" "hel" "llo"`},
		{"hELLo", Options{IgnoreCase: true}, `"ell" "hel" "llo"`},
		{"hello", Options{Fixed: true, IgnoreCase: true}, `"ell" "hel" "llo"`},
		{"abc|xyz", Options{}, `("abc"|"xyz")`},
		{`a\x{FFFD}c`, Options{}, "+"},
	} {
		if got := mustCompile(t, c.o, c.pat).Query().String(); got != c.want {
			t.Errorf("%q %+v: plan %s, want %s", c.pat, c.o, got, c.want)
		}
	}
	if got := mustCompile(t, Options{}, "abc", ".").Query().String(); got != "+" {
		t.Errorf("abc or .: plan %s, want +", got)
	}
	// Go's regexp/syntax reads U+FFFD as a rune like any other, but an
	// engine may match it against an invalid byte: the plan must not
	// require its bytes. RE2, as git grep's PCRE, matches nothing there.
	m := mustCompile(t, Options{}, `a[\x{FFFD}x]c`)
	if content := "xa\xffc"; m.Match([]byte(content)) || m.Query().Op != All {
		t.Errorf("U+FFFD: match %v, plan %v", m.Match([]byte(content)), m.Query())
	}
	if !m.Match([]byte("a\uFFFDc")) {
		t.Error("U+FFFD does not match itself")
	}
}

// TestEval: And, Or, All and None.
func TestEval(t *testing.T) {
	abc, xyz := trigram('a', 'b', 'c'), trigram('x', 'y', 'z')
	h := func(t uint32) bool { return t == abc }
	for _, c := range []struct {
		q    *Query
		want bool
	}{
		{&Query{Op: All}, true},
		{&Query{Op: None}, false},
		{&Query{Op: And, Trigrams: []uint32{abc}}, true},
		{&Query{Op: And, Trigrams: []uint32{abc, xyz}}, false},
		{&Query{Op: Or, Trigrams: []uint32{xyz}, Sub: []*Query{{Op: And, Trigrams: []uint32{abc}}}}, true},
		{&Query{Op: Or, Trigrams: []uint32{xyz}}, false},
		{&Query{Op: And, Trigrams: []uint32{abc}, Sub: []*Query{{Op: None}}}, false},
	} {
		if got := c.q.Eval(h); got != c.want {
			t.Errorf("%v: %v, want %v", c.q, got, c.want)
		}
	}
}

// TestConvertNewline: a trigram holding '\n' is never required: dropped
// from an And, and it makes an Or true.
func TestConvertNewline(t *testing.T) {
	and := convert(&index.Query{Op: index.QAnd, Trigram: []string{"a\nb", "abc"}})
	if and.String() != `"abc"` {
		t.Errorf("And: %v", and)
	}
	or := convert(&index.Query{Op: index.QOr, Trigram: []string{"a\nb", "abc"}})
	if or.Op != All {
		t.Errorf("Or: %v", or)
	}
}
