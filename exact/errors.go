package exact

import (
	"errors"
	"fmt"
	"regexp/syntax"
	"strings"
	"unicode/utf8"
)

// PatternError is an invalid pattern: what is wrong and the byte offset in
// the pattern where it is, with a hint for the PCRE constructs that RE2
// refuses.
type PatternError struct {
	Pattern string
	Offset  int
	Msg     string // what is wrong, e.g. "missing closing )"
	Hint    string // what to do instead, or ""
	Err     error  // the parser's error
	// POSIX: Msg is glibc's regerror text for a basic or extended
	// pattern, which git grep prints as it is.
	POSIX bool
	// GitMsg is what git grep says of the pattern (glibc's or PCRE2's
	// words), or "" when it is Msg.
	GitMsg string
}

// GitMessage is what git grep says of the pattern.
func (e *PatternError) GitMessage() string {
	if e.GitMsg != "" {
		return e.GitMsg
	}
	return e.Msg
}

func (e *PatternError) Error() string {
	s := fmt.Sprintf("invalid pattern %q: %s at offset %d", e.Pattern, e.Msg, e.Offset)
	if e.Hint != "" {
		s += "\nhint: " + e.Hint
	}
	return s
}

func (e *PatternError) Unwrap() error { return e.Err }

const re2Hint = "patterns are RE2 (Go regexp) syntax, with PCRE's backreferences, lookaround, atomic groups and possessive repeats; -F matches a fixed string"

// newPatternError locates err in pattern. Go's parser names the offending
// text but not where it is; for unbalanced parentheses and invalid UTF-8 it
// names the whole pattern, so those are found by scanning.
func newPatternError(pattern string, err error) *PatternError {
	pe := &PatternError{Pattern: pattern, Msg: err.Error(), Err: err}
	var se *syntax.Error
	if !errors.As(err, &se) {
		return pe
	}
	pe.Msg = se.Code.String()
	pe.GitMsg = pcreMessages[se.Code]
	switch se.Code {
	case syntax.ErrMissingParen, syntax.ErrUnexpectedParen:
		open, extra := unbalancedParen(pattern)
		pe.Offset = max(open, 0)
		if se.Code == syntax.ErrUnexpectedParen {
			pe.Offset = max(extra, 0)
		}
	case syntax.ErrInvalidUTF8:
		for i := 0; i < len(pattern); {
			r, n := utf8.DecodeRuneInString(pattern[i:])
			if r == utf8.RuneError && n == 1 {
				pe.Offset = i
				break
			}
			i += n
		}
	case syntax.ErrTrailingBackslash:
		pe.Offset = len(pattern) - 1
	case syntax.ErrMissingBracket:
		pe.Offset = len(pattern) - len(se.Expr)
	default:
		pe.Offset = max(strings.Index(pattern, se.Expr), 0)
	}
	switch {
	case se.Code == syntax.ErrInvalidEscape && len(se.Expr) == 2 && se.Expr[1] >= '1' && se.Expr[1] <= '9':
		pe.Msg = "backreference " + se.Expr + " is not supported"
		pe.Hint = re2Hint
	case se.Code == syntax.ErrInvalidNamedCapture && (strings.Contains(pattern, "(?<=") || strings.Contains(pattern, "(?<!")):
		pe.Msg = "lookbehind is not supported"
		pe.Offset = lookbehindAt(pattern)
		pe.Hint = re2Hint
	case se.Code == syntax.ErrInvalidPerlOp && (se.Expr == "(?=" || se.Expr == "(?!"):
		pe.Msg = "lookahead is not supported"
		pe.Hint = re2Hint
	case se.Code == syntax.ErrInvalidPerlOp, se.Code == syntax.ErrInvalidRepeatOp:
		pe.Hint = re2Hint
	}
	return pe
}

func lookbehindAt(pattern string) int {
	a, b := strings.Index(pattern, "(?<="), strings.Index(pattern, "(?<!")
	if a < 0 || (b >= 0 && b < a) {
		return b
	}
	return a
}

// unbalancedParen returns the offset of the innermost '(' left open and of
// the first ')' that closes nothing (-1 when there is none), skipping
// escapes, \Q…\E quotes and bracketed classes.
func unbalancedParen(p string) (open, extra int) {
	var stack []int
	extra = -1
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case '\\':
			if strings.HasPrefix(p[i:], `\Q`) {
				end := strings.Index(p[i+2:], `\E`)
				if end < 0 {
					i = len(p)
				} else {
					i += 2 + end + 1
				}
				continue
			}
			i++
		case '[':
			i = classEnd(p, i)
		case '(':
			stack = append(stack, i)
		case ')':
			if len(stack) == 0 {
				if extra < 0 {
					extra = i
				}
				continue
			}
			stack = stack[:len(stack)-1]
		}
	}
	if len(stack) == 0 {
		return -1, extra
	}
	return stack[len(stack)-1], extra
}

// classEnd returns the offset of the ']' closing the class opened at i
// (a leading ']' or '^]' is a member, as are [:name:] and escapes).
func classEnd(p string, i int) int {
	j := i + 1
	if j < len(p) && p[j] == '^' {
		j++
	}
	if j < len(p) && p[j] == ']' {
		j++
	}
	for ; j < len(p); j++ {
		switch {
		case p[j] == '\\':
			j++
		case strings.HasPrefix(p[j:], "[:"):
			if end := strings.Index(p[j+2:], ":]"); end >= 0 {
				j += 2 + end + 1
			}
		case p[j] == ']':
			return j
		}
	}
	return len(p)
}
