package query

import (
	"strings"
	"unicode"
)

// Shape is a query's form, which decides what a search can promise about
// it: an identifier that names nothing gets a "no exact match" note, a
// phrase or code is also looked for verbatim.
type Shape uint8

// Shapes of a query. A query has the first of Phrase, Identifier,
// Qualified and Code that fits it, else Words.
const (
	// Words: prose or keywords ("retry with backoff").
	Words Shape = iota
	// Identifier: one identifier, letters, digits, _ and $, not starting
	// with a digit (parseConfig, $el).
	Identifier
	// Qualified: a name qualified by '.', ':' or '#' with no white space
	// (http.Client, pkg::Func, Class#method).
	Qualified
	// Code: text with a literal that reads as code (err != nil,
	// os.ReadFile(, "a->b").
	Code
	// Phrase: the whole query in double quotes.
	Phrase
)

func (s Shape) String() string {
	return [...]string{"words", "identifier", "qualified", "code", "phrase"}[s]
}

// codeBytes are the bytes that make a query read as code: brackets and
// operators, not prose's commas and full stops.
const codeBytes = "()[]{}<>=!+*/\\&|^%~#@$`;"

// quoted reports whether t is one phrase in double quotes. Quotes inside
// stay part of it, so that a pasted string literal (`"errors.New("x")"`)
// is found as it is.
func quoted(t string) bool { return len(t) >= 3 && t[0] == '"' && t[len(t)-1] == '"' }

// phrases returns the phrases of t: the whole of it when it is quoted,
// else the inside of each pair of double quotes. A last quote with no
// partner opens no phrase.
func phrases(t string) []string {
	if quoted(t) {
		return []string{t[1 : len(t)-1]}
	}
	var out []string
	for {
		i := strings.IndexByte(t, '"')
		if i < 0 {
			return out
		}
		j := strings.IndexByte(t[i+1:], '"')
		if j < 0 {
			return out
		}
		if p := t[i+1 : i+1+j]; strings.TrimSpace(p) != "" {
			out = append(out, p)
		}
		t = t[i+1+j+1:]
	}
}

// literalOf returns the text a query asks for verbatim: the inside of a
// query in double quotes, or a query that reads as code: brackets or
// operators (`err != nil`, `os.ReadFile(`, `a->b`), or a dot or colon
// joining two words (`http.Client`). Prose, commas and full stops
// included, asks for meaning and gets none; so does a bare identifier,
// which the symbol arm answers. t is trimmed; "" when there is none.
func literalOf(t string) string {
	lit := ""
	switch {
	case quoted(t):
		lit = t[1 : len(t)-1]
	case len(t) < 3:
	case strings.ContainsAny(t, codeBytes):
		lit = t
	default:
		for i := 1; i+1 < len(t); i++ {
			if (t[i] == '.' || t[i] == ':') && isWordByte(t[i-1]) && isWordByte(t[i+1]) {
				lit = t
				break
			}
		}
	}
	if strings.TrimSpace(lit) == "" {
		return ""
	}
	return lit
}

func isWordByte(b byte) bool {
	return b == '_' || '0' <= b && b <= '9' || 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z'
}

// lastName returns what follows the last '.', ':' or '#' of a query with
// no white space: the name a qualified query (Class.method, pkg::func,
// Class#method) ends with.
func lastName(t string) string {
	if strings.ContainsAny(t, " \t") {
		return ""
	}
	if i := strings.LastIndexAny(t, ".:#"); i >= 0 && i < len(t)-1 {
		return t[i+1:]
	}
	return ""
}

func shapeOf(t, literal string) Shape {
	switch {
	case quoted(t):
		return Phrase
	case isIdentifier(t):
		return Identifier
	case qualifiedName(t):
		return Qualified
	case literal != "":
		return Code
	}
	return Words
}

// isIdentifier reports whether t is one identifier (letters, digits, _
// and $, not starting with a digit), the form a symbol search takes.
func isIdentifier(t string) bool {
	for i, r := range t {
		if r != '_' && r != '$' && !unicode.IsLetter(r) && (i == 0 || !unicode.IsDigit(r)) {
			return false
		}
	}
	return t != ""
}

// qualifiedName reports whether t is identifiers joined by '.', ':' or
// '#', each separator run between two of them.
func qualifiedName(t string) bool {
	parts := strings.FieldsFunc(t, func(r rune) bool { return r == '.' || r == ':' || r == '#' })
	if len(parts) < 2 || strings.ContainsAny(t[:1]+t[len(t)-1:], ".:#") {
		return false
	}
	for _, p := range parts {
		if !isIdentifier(p) {
			return false
		}
	}
	return true
}

// CodeName reports whether the query is one ASCII identifier that only
// code would spell, three bytes or more with an inner capital, an
// underscore or a digit (ErrConflict, parse_config, utf8Len): a word of
// prose (retry, Parse) is not one. The log follows such a name's string
// through history as it follows a phrase.
func (q *Query) CodeName() bool {
	if len(q.Text) < 3 {
		return false
	}
	shaped := false
	for i, r := range q.Text {
		switch {
		case r == '_' || r >= '0' && r <= '9' && i > 0 || r >= 'A' && r <= 'Z' && i > 0:
			shaped = true
		case r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z':
		default:
			return false
		}
	}
	return shaped
}
