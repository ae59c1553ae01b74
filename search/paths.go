package search

import (
	"path"
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
	if v.lowerPaths == nil {
		v.lowerPaths = make([]string, len(v.added))
		for i, b := range v.added {
			v.lowerPaths[i] = lowerASCII(b.path)
		}
	}
	var out []rowTF
	for i, b := range v.added {
		lower := v.lowerPaths[i]
		hit := false
		for _, f := range forms {
			if strings.Contains(lower, f) {
				hit = true
				break
			}
		}
		if !hit {
			continue
		}
		n := 0
		for _, tok := range pathField(b.path) {
			for _, f := range forms {
				if tok == f {
					n++
					break
				}
			}
		}
		if n == 0 {
			continue
		}
		allow := v.allow[b.seg]
		for r := b.first; r < b.first+b.n; r++ {
			if allow.Test(uint(r)) && v.snap.Segments[b.seg].Lex.DocLen(r) > 0 {
				out = append(out, rowTF{int32(b.seg), int32(r), w * float64(n)})
			}
		}
	}
	return sumRows(out)
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

// lowerASCII lowercases p, allocating only when it has a capital.
func lowerASCII(p string) string {
	for i := 0; i < len(p); i++ {
		if c := p[i]; c >= 'A' && c <= 'Z' || c >= 0x80 {
			return strings.ToLower(p)
		}
	}
	return p
}
