package main

import (
	"strconv"
	"strings"
	"sync/atomic"
)

// quoteHighBytes mirrors git's core.quotePath (default true): whether
// bytes from 0x80 up are written as octal escapes in paths shown to people.
// readSettings sets it from the repository's config.
var quoteHighBytes atomic.Bool

func init() { quoteHighBytes.Store(true) }

// setQuotePath takes the value of core.quotePath ("" when unset).
func setQuotePath(v string) {
	b, err := strconv.ParseBool(strings.TrimSpace(v))
	quoteHighBytes.Store(err != nil || b)
}

// quotePath writes a path the way git does in human output (quote_c_style):
// unchanged when it holds no byte that needs escaping, else in double
// quotes with C escapes for control characters, '"' and '\', and octal for
// DEL and (with core.quotePath) bytes from 0x80 up. JSON output carries the
// exact name instead.
func quotePath(p string) string {
	high := quoteHighBytes.Load()
	needs := func(c byte) bool { return c < 0x20 || c == '"' || c == '\\' || c == 0x7f || high && c >= 0x80 }
	i := 0
	for i < len(p) && !needs(p[i]) {
		i++
	}
	if i == len(p) {
		return p
	}
	var b strings.Builder
	b.WriteByte('"')
	b.WriteString(p[:i])
	for ; i < len(p); i++ {
		c := p[i]
		if !needs(c) {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('\\')
		switch c {
		case '\a':
			b.WriteByte('a')
		case '\b':
			b.WriteByte('b')
		case '\t':
			b.WriteByte('t')
		case '\n':
			b.WriteByte('n')
		case '\v':
			b.WriteByte('v')
		case '\f':
			b.WriteByte('f')
		case '\r':
			b.WriteByte('r')
		case '"', '\\':
			b.WriteByte(c)
		default:
			b.WriteByte('0' + c>>6)
			b.WriteByte('0' + c>>3&7)
			b.WriteByte('0' + c&7)
		}
	}
	b.WriteByte('"')
	return b.String()
}
