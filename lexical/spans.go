package lexical

import (
	"strings"
	"unicode/utf8"
)

// Span is a token's place in the text it came from: Text[Start:End]
// lowercases to Token.
type Span struct {
	Start, End int
	Token      string
}

// Spans returns where Tokens' tokens lie in text, for highlighting matches
// in a snippet. A sub-token ("parse" in "parseJSON") gets its own span and
// the whole identifier one covering it, so that either kind of query word
// finds its place. Identifiers whose lowercase form changes length (some
// non-ASCII letters) yield only their whole span.
func Spans(text string) []Span {
	var out []Span
	for i := 0; i < len(text); {
		cl, _, n := classAt(text, i)
		if cl == clSep || cl == clHyphen {
			i += n
			continue
		}
		j := i + n
		for j < len(text) {
			cl, _, n := classAt(text, j)
			if cl == clSep {
				break
			}
			j += n
		}
		out = appendIdentSpans(out, text[i:j], i)
		i = j
	}
	return out
}

// appendIdentSpans locates the tokens of one identifier, in order, inside its
// lowercased text.
func appendIdentSpans(out []Span, ident string, base int) []Span {
	toks := Tokens(ident)
	if len(toks) == 0 {
		return out
	}
	lower := strings.ToLower(ident)
	if len(lower) != len(ident) || !utf8.ValidString(ident) {
		return append(out, Span{base, base + len(ident), strings.Join(toks, "")})
	}
	at := 0
	for _, tok := range toks {
		k := strings.Index(lower[at:], tok)
		if k < 0 {
			// The whole identifier comes after its sub-tokens; look again
			// from the start.
			if k = strings.Index(lower, tok); k < 0 {
				continue
			}
			out = append(out, Span{base + k, base + k + len(tok), tok})
			continue
		}
		out = append(out, Span{base + at + k, base + at + k + len(tok), tok})
		at += k + len(tok)
	}
	return out
}
