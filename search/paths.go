package search

import (
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/bcindex/bcindex/lexical"
)

// pathTF returns, for the query term t, the frequency w times the count
// of t (or another form of its word) in the path field of each visible row
// whose file's path field holds it: the file's name without extension,
// twice, and its last three directories; in row order, a row at several
// such paths the sum of theirs. nil when w is 0.
func (v *view) pathTF(t string, w float64) []rowTF {
	if w <= 0 {
		return nil
	}
	forms := append([]string{t}, wordForms(t)...)
	var counts []pathPost
	if px := v.pathIndexOf(); px != nil {
		counts = v.fieldCounts(px, forms)
	} else {
		counts = v.scanCounts(forms)
	}
	var out []rowTF
	for _, c := range counts {
		b := v.added[c.i]
		allow := v.allow[b.seg]
		for r := b.first; r < b.first+b.n; r++ {
			if allow.Test(uint(r)) && v.snap.Segments[b.seg].Lex.DocLen(r) > 0 {
				out = append(out, rowTF{int32(b.seg), int32(r), w * float64(c.n)})
			}
		}
	}
	return sumRows(out)
}

// scanCounts returns, in the order of added, the fields whose lowercased
// text holds one of forms (distinct), found by scanning the text of them
// all (pathsHolding), and whose path field holds one as a token, each
// with how many of its tokens are one of forms.
func (v *view) scanCounts(forms []string) []pathPost {
	var hits []int
	if p := commonPrefix(forms); len(p) >= 3 {
		// One scan for what every form starts with, then the forms in
		// the paths that hold it.
		text, ends := v.lowerPaths()
		for _, i := range v.pathsHolding(p, nil) {
			field := text[pathStart(ends, i):ends[i]]
			if slices.ContainsFunc(forms, func(f string) bool { return strings.Contains(field, f) }) {
				hits = append(hits, i)
			}
		}
	} else {
		for _, f := range forms {
			hits = v.pathsHolding(f, hits)
		}
		slices.Sort(hits)
		hits = slices.Compact(hits)
	}
	var out []pathPost
	for _, i := range hits {
		n := 0
		for _, tok := range pathField(v.added[i].path) {
			if slices.Contains(forms, tok) {
				n++
			}
		}
		if n > 0 {
			out = append(out, pathPost{int32(i), int32(n)})
		}
	}
	return out
}

// pathField is the tokens of a file's path field: its name without
// extension twice, then its last three directories.
func pathField(p string) []string {
	base := path.Base(p)
	stem := strings.TrimSuffix(base, path.Ext(base))
	dirs := strings.Split(path.Dir(p), "/")
	if len(dirs) > 3 {
		dirs = dirs[len(dirs)-3:]
	}
	if len(dirs) == 1 && dirs[0] == "." {
		dirs = nil
	}
	return lexical.Tokens(stem + " " + stem + " " + strings.Join(dirs, " "))
}

// fieldText is the end of p that pathField reads: its last three
// directories and its name. Every token of the path field is a piece of
// it, lowercased.
func fieldText(p string) string {
	i := len(p)
	for k := 0; k < 4; k++ {
		i = strings.LastIndexByte(p[:i], '/')
		if i < 0 {
			return p
		}
	}
	return p[i+1:]
}

// lowerASCII lowercases p, allocating only when it has a capital.
func lowerASCII(p string) string {
	for i := 0; i < len(p); i++ {
		if c := p[i]; c >= 'A' && c <= 'Z' || c >= 0x80 {
			return strings.ToLower(p)
		}
	}
	return p
}

// pathsHolding appends to dst the indexes in v.added of the paths whose
// path field's text, lowercased, holds f: those that may hold a token f. It searches the paths joined in one string
// (lowerPaths), so that a query term costs a few scans of memory rather
// than a call per path.
func (v *view) pathsHolding(f string, dst []int) []int {
	text, ends := v.lowerPaths()
	for at := 0; at <= len(text); {
		k := strings.Index(text[at:], f)
		if k < 0 {
			break
		}
		p := at + k
		i := sort.Search(len(ends), func(i int) bool { return ends[i] >= p+len(f) })
		if i == len(ends) || p < pathStart(ends, i) {
			at = p + 1 // across a separator
			continue
		}
		dst = append(dst, i)
		at = ends[i] + 1
	}
	return dst
}

// lowerPaths returns the path fields' text of v.added (fieldText),
// lowercased (lowerASCII) and joined, each followed by a newline, and the
// offset of each one's newline; made on first use, and kept with the
// store's view (a server's queries on one view add the same paths).
func (v *view) lowerPaths() (string, []int) {
	if v.pathEnds == nil {
		if v.memo != nil {
			pt := v.memo.Memo(v.pathsKey, func() any { return joinPaths(v.added) }).(*pathText)
			v.pathText, v.pathEnds = pt.text, pt.ends
		} else {
			pt := joinPaths(v.added)
			v.pathText, v.pathEnds = pt.text, pt.ends
		}
	}
	return v.pathText, v.pathEnds
}

// pathsKey keys the path fields' text of a view's blobs in
// store.View.Memo: the first n listings' blobs that the path filters
// (path, and the excluded patterns joined) let through.
type pathsKey struct {
	n             int
	path, exclude string
}

// pathText is the path fields' text of some blobs, joined (lowerPaths).
type pathText struct {
	text string
	ends []int
}

// joinPaths joins the path fields of added, lowercased, each followed by
// a newline.
func joinPaths(added []blobRef) *pathText {
	n := len(added)
	for _, b := range added {
		n += len(b.path) // at least its field's length
	}
	var buf strings.Builder
	buf.Grow(n)
	ends := make([]int, len(added))
	for i, b := range added {
		appendLower(&buf, fieldText(b.path))
		ends[i] = buf.Len()
		buf.WriteByte('\n')
	}
	return &pathText{buf.String(), ends}
}

// appendLower writes p lowercased to buf as lowerASCII would return it.
func appendLower(buf *strings.Builder, p string) {
	upper := false
	for i := 0; i < len(p); i++ {
		switch c := p[i]; {
		case c >= 0x80:
			buf.WriteString(strings.ToLower(p))
			return
		case 'A' <= c && c <= 'Z':
			upper = true
		}
	}
	if !upper {
		buf.WriteString(p)
		return
	}
	for i := 0; i < len(p); i++ {
		c := p[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		buf.WriteByte(c)
	}
}

// pathStart is where path i starts in lowerPaths' text.
func pathStart(ends []int, i int) int {
	if i == 0 {
		return 0
	}
	return ends[i-1] + 1
}

// commonPrefix is the longest string every one of ss starts with.
func commonPrefix(ss []string) string {
	p := ss[0]
	for _, s := range ss[1:] {
		n := 0
		for n < len(p) && n < len(s) && p[n] == s[n] {
			n++
		}
		p = p[:n]
	}
	return p
}
