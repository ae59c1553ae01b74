package query

import (
	"errors"
	"strings"
	"sync"

	"github.com/bcindex/bcindex/exact"
	"github.com/bcindex/bcindex/lexical"
)

// ErrEmpty is returned for a query with nothing to search for.
var ErrEmpty = errors.New("empty query")

// Query is a parsed query. Parse builds it once per search; every reader
// takes its part from here rather than cutting the text up again. Build
// it with Parse, which also fills the unexported token set that Has and
// Marks read. The zero Query asks for nothing: no tokens, no words, no
// literal, no marks.
type Query struct {
	// Raw is the text as given; the vector arm embeds it as it is.
	Raw string
	// Text is Raw without leading and trailing white space: the name the
	// symbol arm looks for.
	Text string
	// Words are Text cut at white space. Fusion and the cluster read a
	// query of three words or more as prose (InWords).
	Words []string
	// Tokens are the code-aware tokens of Raw, in order, repeats kept, by
	// the rules the index applies to code (lexical.Tokens): parseJSON
	// gives parse, json and parsejson; stop words are left out.
	Tokens []string
	// Terms are Tokens without repeats, in the order first seen: the text
	// arm's BM25 terms.
	Terms []string
	// Phrases are the insides of the query's double-quoted phrases, in
	// order (see phrases).
	Phrases []string
	// Shape is the query's form: one identifier, a qualified name, code,
	// a phrase or words.
	Shape Shape
	// Last is the name a qualified query ends with, after its last '.',
	// ':' or '#' (Client in http.Client, method in Class#method), for the
	// symbol arm to try when the whole names nothing; "" when Text holds
	// white space or none of those.
	Last string
	// Literal is the text the exact tier finds verbatim, "" for none: the
	// inside of a query in double quotes, or a query that reads as code
	// (see literalOf).
	Literal string

	terms map[string]bool // Tokens as a set, for Marks
	exact *lazyMatcher    // shared by copies: compiled once
}

// lazyMatcher compiles the literal's matcher on first use: only the exact
// tier needs it, and most queries have no literal.
type lazyMatcher struct {
	once sync.Once
	m    *exact.Matcher
}

// Parse parses a query. Its only error is ErrEmpty, for text that is
// blank; an unpaired double quote is an ordinary character.
func Parse(text string) (Query, error) {
	t := strings.TrimSpace(text)
	if t == "" {
		return Query{}, ErrEmpty
	}
	q := Query{Raw: text, Text: t, Words: strings.Fields(t), Tokens: lexical.Tokens(text), exact: &lazyMatcher{}}
	q.terms = make(map[string]bool, len(q.Tokens))
	for _, tok := range q.Tokens {
		if !q.terms[tok] {
			q.terms[tok] = true
			q.Terms = append(q.Terms, tok)
		}
	}
	q.Phrases = phrases(t)
	q.Literal = literalOf(t)
	q.Last = lastName(t)
	q.Shape = shapeOf(t, q.Literal)
	return q, nil
}

// InWords reports whether the query reads as prose: three words or more.
// Fusion ranks types and values below code for such a query.
func (q *Query) InWords() bool { return len(q.Words) >= 3 }

// Has reports whether tok is one of the query's tokens.
func (q *Query) Has(tok string) bool { return q.terms[tok] }

// Exact returns the matcher of Literal (as git grep -F), whose Query is
// the trigram plan that selects the blobs that may hold it; nil when the
// query has no literal. It is compiled on the first call and shared by
// copies of q.
func (q *Query) Exact() *exact.Matcher {
	if q.Literal == "" {
		return nil
	}
	if q.exact == nil { // a Query not built by Parse
		return compileLiteral(q.Literal)
	}
	q.exact.once.Do(func() { q.exact.m = compileLiteral(q.Literal) })
	return q.exact.m
}

func compileLiteral(lit string) *exact.Matcher {
	// A fixed string compiles unless it is empty, which Literal never is.
	m, err := exact.Compile([]string{lit}, exact.Options{Fixed: true})
	if err != nil {
		return nil
	}
	return m
}

// Of returns the query a search runs: parsed when the caller parsed it
// already, else text parsed with parse. Given both, text must be empty or
// parsed's Raw: a query with two texts is a caller's mistake.
func Of(text string, parsed *Query, parse func(string) (Query, error)) (*Query, error) {
	if parsed != nil {
		if text != "" && text != parsed.Raw {
			return nil, errors.New("parse query: the options hold two queries (Query and Parsed differ); set one")
		}
		if strings.TrimSpace(parsed.Raw) == "" {
			return nil, ErrEmpty
		}
		return parsed, nil
	}
	q, err := parse(text)
	if err != nil {
		return nil, err
	}
	return &q, nil
}
