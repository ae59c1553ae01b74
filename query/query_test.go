package query

import (
	"errors"
	"slices"
	"testing"
)

func TestParse(t *testing.T) {
	for _, c := range []struct {
		in      string
		shape   Shape
		literal string
		last    string
		words   int
		phrases []string
	}{
		{in: "parseConfig", shape: Identifier, words: 1},
		{in: "  $el ", shape: Identifier, literal: "$el", words: 1},
		{in: "http.Client", shape: Qualified, literal: "http.Client", last: "Client", words: 1},
		// A double colon joins no two word bytes: no literal, as before.
		{in: "pkg::Func", shape: Qualified, last: "Func", words: 1},
		{in: "Class#method", shape: Qualified, literal: "Class#method", last: "method", words: 1},
		{in: "self.", shape: Words, words: 1},
		{in: "http.Client timeout", shape: Code, literal: "http.Client timeout", words: 2},
		{in: "err != nil", shape: Code, literal: "err != nil", words: 3},
		{in: "os.ReadFile(", shape: Code, literal: "os.ReadFile(", last: "ReadFile(", words: 1},
		{in: `"Transaction Conflict. Please retry"`, shape: Phrase, literal: "Transaction Conflict. Please retry", words: 4,
			phrases: []string{"Transaction Conflict. Please retry"}},
		// A pasted string literal keeps its inner quotes.
		{in: `"errors.New("x")"`, shape: Phrase, literal: `errors.New("x")`, last: `New("x")"`, words: 1, phrases: []string{`errors.New("x")`}},
		{in: `Transaction Conflict. Please retry`, shape: Words, words: 4},
		{in: `Parse reads the file, then returns it.`, shape: Words, words: 7},
		{in: `retry "with backoff" now`, shape: Words, words: 4, phrases: []string{"with backoff"}},
		// An unpaired quote is an ordinary character.
		{in: `say "hello`, shape: Words, words: 2},
		{in: `"`, shape: Words, words: 1},
		{in: `""`, shape: Words, words: 1},
		{in: `"  "`, shape: Phrase, words: 2, phrases: []string{"  "}},
		{in: `retry with backoff`, shape: Words, words: 3},
		{in: `how do I retry?`, shape: Words, words: 4},
		{in: `RetryWithBackoff`, shape: Identifier, words: 1},
		{in: `parse_config_file`, shape: Identifier, words: 1},
		{in: `ab`, shape: Identifier, words: 1},
		{in: "<<", shape: Words, words: 1},
		{in: "a<<b", shape: Code, literal: "a<<b", words: 1},
		{in: "\xff\xfe", shape: Words, words: 1},
	} {
		q, err := Parse(c.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", c.in, err)
			continue
		}
		if q.Shape != c.shape || q.Literal != c.literal || q.Last != c.last || len(q.Words) != c.words || !slices.Equal(q.Phrases, c.phrases) {
			t.Errorf("Parse(%q) = shape %v, literal %q, last %q, %d words, phrases %q; want %v, %q, %q, %d, %q",
				c.in, q.Shape, q.Literal, q.Last, len(q.Words), q.Phrases, c.shape, c.literal, c.last, c.words, c.phrases)
		}
		if q.Raw != c.in {
			t.Errorf("Parse(%q).Raw = %q", c.in, q.Raw)
		}
	}
}

func TestParseTokens(t *testing.T) {
	q, err := Parse("parseJSON the JSON and retry_count")
	if err != nil {
		t.Fatal(err)
	}
	// The index's tokenizer: sub-tokens and the whole identifier, stop
	// words left out, repeats kept in Tokens and dropped from Terms.
	wantTokens := []string{"parse", "json", "parsejson", "json", "retry", "count", "retry_count"}
	if !slices.Equal(q.Tokens, wantTokens) {
		t.Errorf("Tokens = %q; want %q", q.Tokens, wantTokens)
	}
	wantTerms := []string{"parse", "json", "parsejson", "retry", "count", "retry_count"}
	if !slices.Equal(q.Terms, wantTerms) {
		t.Errorf("Terms = %q; want %q", q.Terms, wantTerms)
	}
	if !q.InWords() || !q.Has("parsejson") || q.Has("the") {
		t.Errorf("InWords %v, Has(parsejson) %v, Has(the) %v; want true, true, false", q.InWords(), q.Has("parsejson"), q.Has("the"))
	}
}

func TestParseEmpty(t *testing.T) {
	for _, in := range []string{"", "  ", "\t\n"} {
		if _, err := Parse(in); !errors.Is(err, ErrEmpty) {
			t.Errorf("Parse(%q) = %v; want ErrEmpty", in, err)
		}
	}
	var zero Query
	if zero.Exact() != nil || zero.Marks("anything here") != nil || zero.InWords() || zero.FirstMark("x") != -1 {
		t.Error("the zero Query asks for something")
	}
}

func TestCodeName(t *testing.T) {
	for in, want := range map[string]bool{
		"ErrConflict": true, "parse_config": true, "utf8Len": true, "_x1": true,
		"retry": false, "Parse": false, "ab": false, "a_": false, "1abc": false,
		"$el_x": false, "naïve_x": false, "err != nil": false, `"ErrConflict"`: false,
	} {
		q, _ := Parse(in)
		if got := q.CodeName(); got != want {
			t.Errorf("Parse(%q).CodeName() = %v; want %v", in, got, want)
		}
	}
}

func TestExact(t *testing.T) {
	q, _ := Parse("err != nil")
	m := q.Exact()
	if m == nil {
		t.Fatal("no matcher for a code literal")
	}
	if q.Exact() != m {
		t.Error("the matcher was compiled twice")
	}
	if !m.Match([]byte("if err != nil {\n")) || m.Match([]byte("if err == nil {\n")) {
		t.Error("the matcher does not find its literal, or finds another")
	}
	if s := m.Query().String(); s == "" {
		t.Error("no trigram plan")
	}
	copied := q
	if copied.Exact() != m {
		t.Error("a copy compiled its own matcher")
	}
	if w, _ := Parse("retry with backoff"); w.Exact() != nil {
		t.Error("words got a matcher")
	}
}

func TestMarks(t *testing.T) {
	q, _ := Parse("retry backoff")
	line := "func retryWithBackoff(n int) { backoff(n) }"
	got := q.Marks(line)
	var words []string
	for _, m := range got {
		words = append(words, line[m[0]:m[1]])
	}
	// Sub-tokens are marked where they lie in an identifier.
	if want := []string{"retry", "Backoff", "backoff"}; !slices.Equal(words, want) {
		t.Errorf("Marks = %q; want %q", words, want)
	}
	// The whole identifier's span covers its parts: one merged mark.
	whole, _ := Parse("RetryWithBackoff")
	if got := whole.Marks(line); len(got) != 2 || line[got[0][0]:got[0][1]] != "retryWithBackoff" {
		t.Errorf("Marks of the whole identifier = %v; want retryWithBackoff as one mark, then backoff", got)
	}
	if at := q.FirstMark(line); at != 5 {
		t.Errorf("FirstMark = %d; want 5", at)
	}
	if q.Marks("nothing to see") != nil || q.FirstMark("nothing") != -1 {
		t.Error("marks where no token is")
	}
}

func TestOf(t *testing.T) {
	p, _ := Parse("retry")
	calls := 0
	parse := func(s string) (Query, error) { calls++; return Parse(s) }
	if got, err := Of("", &p, parse); err != nil || got != &p || calls != 0 {
		t.Errorf("Of(parsed) = %v, %v after %d parses; want the parsed query, no parse", got, err, calls)
	}
	if got, err := Of("retry", &p, parse); err != nil || got != &p {
		t.Errorf("Of(its own text, parsed) = %v, %v", got, err)
	}
	if _, err := Of("backoff", &p, parse); err == nil {
		t.Error("two different queries accepted")
	}
	if got, err := Of("backoff", nil, parse); err != nil || got.Text != "backoff" || calls != 1 {
		t.Errorf("Of(text) = %v, %v after %d parses; want one parse", got, err, calls)
	}
	if _, err := Of("", &Query{}, parse); !errors.Is(err, ErrEmpty) {
		t.Errorf("Of(zero Query) = %v; want ErrEmpty", err)
	}
}
