package lexical

import (
	"slices"
	"sync"
	"unicode"
	"unicode/utf8"
)

// MaxTokenLen is the longest token, in bytes, that Tokens emits.
const MaxTokenLen = 64

// Rune classes.
const (
	clSep    uint8 = iota // separator
	clLower               // lowercase letter
	clUpper               // uppercase or titlecase letter
	clOther               // caseless letter (Han, Arabic, ...)
	clDigit               // decimal digit
	clMark                // combining mark, continues the current sub-token
	clJoin                // '_'
	clHyphen              // '-', joins only between alnum and letter
)

var asciiClass = func() (t [utf8.RuneSelf]uint8) {
	for c := 'a'; c <= 'z'; c++ {
		t[c] = clLower
	}
	for c := 'A'; c <= 'Z'; c++ {
		t[c] = clUpper
	}
	for c := '0'; c <= '9'; c++ {
		t[c] = clDigit
	}
	t['_'] = clJoin
	t['-'] = clHyphen
	return t
}()

func classify(r rune) uint8 {
	switch {
	case r < utf8.RuneSelf:
		return asciiClass[r]
	case r == utf8.RuneError:
		return clSep
	case unicode.IsLower(r):
		return clLower
	case unicode.IsUpper(r), unicode.IsTitle(r):
		return clUpper
	case unicode.IsLetter(r):
		return clOther
	case unicode.IsDigit(r):
		return clDigit
	case unicode.IsMark(r):
		return clMark
	}
	return clSep
}

// classAt returns the class of the rune starting at text[i] and its size.
func classAt(text string, i int) (uint8, rune, int) {
	c := text[i]
	if c < utf8.RuneSelf {
		return asciiClass[c], rune(c), 1
	}
	r, n := utf8.DecodeRuneInString(text[i:])
	return classify(r), r, n
}

type span struct{ start, end int }

type tokenizer struct {
	buf   []byte // lowercased identifiers; tokens are spans of it
	spans []span
}

var tokenizers = sync.Pool{New: func() any { return new(tokenizer) }}

// Tokens splits text into lowercase search tokens; see the package comment
// for the rules. It is used for documents and queries alike, never panics and
// returns nil when text has no tokens. The returned strings share one
// backing allocation.
func Tokens(text string) []string { return AppendTokens(nil, text) }

// AppendTokens appends the tokens of text to dst, as Tokens returns them,
// growing dst at most once.
func AppendTokens(dst []string, text string) []string {
	t := tokenizers.Get().(*tokenizer)
	t.buf, t.spans = t.buf[:0], t.spans[:0]
	for i := 0; i < len(text); {
		if c := text[i]; c < utf8.RuneSelf {
			if cl := asciiClass[c]; cl == clSep || cl == clHyphen {
				i++
				continue
			}
		} else if cl, _, n := classAt(text, i); cl == clSep {
			i += n
			continue
		}
		i = t.ident(text, i)
	}
	out := dst
	if len(t.spans) > 0 {
		s := string(t.buf)
		out = slices.Grow(dst, len(t.spans))
		for _, sp := range t.spans {
			out = append(out, s[sp.start:sp.end])
		}
	}
	if cap(t.buf) <= 1<<20 && cap(t.spans) <= 1<<16 {
		tokenizers.Put(t)
	}
	return out
}

// ident scans the identifier starting at text[i], which is a letter, digit,
// mark or '_', appends its tokens and returns the index after it.
func (t *tokenizer) ident(text string, i int) int {
	base := len(t.buf)
	firstSpan := len(t.spans)
	parts := 0 // non-empty sub-tokens seen, before filtering
	wholeStart, wholeEnd := 0, 0
	partStart := base // buf offset of the current sub-token
	prev := clSep     // class of the previous rune in this sub-token
	upperRun := 0     // consecutive capitals ending at prev
	lastRune := base  // buf offset of the previous rune

	endPart := func(end int) {
		if end <= partStart {
			return
		}
		parts++
		if parts == 1 {
			wholeStart = partStart
		}
		wholeEnd = end
		t.emit(partStart, end)
	}

scan:
	for i < len(text) {
		// Fast path: ASCII lowercase after lowercase, digit after digit.
		if c := text[i]; c < utf8.RuneSelf && asciiClass[c] == prev && (prev == clLower || prev == clDigit) {
			j := i + 1
			for j < len(text) && text[j] < utf8.RuneSelf && asciiClass[text[j]] == prev {
				j++
			}
			t.buf = append(t.buf, text[i:j]...)
			lastRune = len(t.buf) - 1
			i = j
			continue
		}
		cl, r, n := classAt(text, i)
		switch cl {
		case clSep:
			break scan
		case clJoin, clHyphen:
			if cl == clHyphen {
				// kebab-case: '-' between an alnum and a letter.
				if prev == clSep || i+1 >= len(text) {
					break scan
				}
				if next, _, _ := classAt(text, i+1); next != clLower && next != clUpper && next != clOther {
					break scan
				}
			}
			endPart(len(t.buf))
			t.buf = append(t.buf, byte(r))
			partStart = len(t.buf)
			prev, upperRun = clSep, 0
			i += n
			continue
		case clMark:
			if prev == clSep {
				prev = clOther
			}
			t.appendLower(r)
			i += n
			continue
		}

		// Letter or digit: is there a sub-token boundary before it?
		switch {
		case prev == clSep:
		case cl == clDigit || prev == clDigit:
			if cl != prev {
				endPart(len(t.buf))
				partStart = len(t.buf)
			}
		case cl == clUpper && prev == clLower:
			endPart(len(t.buf))
			partStart = len(t.buf)
		case cl == clLower && prev == clUpper && upperRun >= 2 && !loneLower(text, i, n):
			// "HTTPServer": the last capital starts the next word.
			endPart(lastRune)
			partStart = lastRune
		case (cl == clOther) != (prev == clOther):
			endPart(len(t.buf))
			partStart = len(t.buf)
		}
		if cl == clUpper {
			if prev == clUpper {
				upperRun++
			} else {
				upperRun = 1
			}
		} else {
			upperRun = 0
		}
		prev = cl
		lastRune = len(t.buf)
		t.appendLower(r)
		i += n
	}
	endPart(len(t.buf))
	if parts > 1 {
		t.emit(wholeStart, wholeEnd)
	}
	if len(t.spans) == firstSpan {
		t.buf = t.buf[:base] // nothing kept: reuse the space
	}
	return i
}

// loneLower reports whether the lowercase letter at text[i], which follows a
// run of capitals, is the only one before a non-lowercase rune, as in "URLs",
// "IDs" or "IPv6": it then stays with the capitals instead of starting a word.
func loneLower(text string, i, n int) bool {
	if i+n >= len(text) {
		return true
	}
	next, _, _ := classAt(text, i+n)
	return next != clLower && next != clMark
}

func (t *tokenizer) appendLower(r rune) {
	if r < utf8.RuneSelf {
		c := byte(r)
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		t.buf = append(t.buf, c)
		return
	}
	t.buf = utf8.AppendRune(t.buf, unicode.ToLower(r))
}

// emit records buf[start:end] as a token unless it is filtered out.
func (t *tokenizer) emit(start, end int) {
	b := t.buf[start:end]
	if len(b) > MaxTokenLen || len(b) == 1 && b[0] >= 'a' || isStopWord(b) {
		return
	}
	t.spans = append(t.spans, span{start, end})
}

// isStopWord reports whether b is one of: the an of to and or is in for with
// on by be this that it as at ("a" is dropped as a one-letter token).
func isStopWord(b []byte) bool {
	switch len(b) {
	case 2:
		switch uint16(b[0])<<8 | uint16(b[1]) {
		case 'a'<<8 | 'n', 'o'<<8 | 'f', 't'<<8 | 'o', 'o'<<8 | 'r',
			'i'<<8 | 's', 'i'<<8 | 'n', 'o'<<8 | 'n', 'b'<<8 | 'y',
			'b'<<8 | 'e', 'i'<<8 | 't', 'a'<<8 | 's', 'a'<<8 | 't':
			return true
		}
	case 3:
		s := string(b)
		return s == "the" || s == "and" || s == "for"
	case 4:
		s := string(b)
		return s == "with" || s == "this" || s == "that"
	}
	return false
}
