package chunk

import (
	"sort"
	"strconv"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
)

// synErr is one syntax error of a parse.
type synErr struct {
	start, end int
	detail     string
}

// maxSynErrs bounds how many syntax errors are described per file.
const maxSynErrs = 64

// syntaxErrors counts the ERROR and MISSING nodes under root, describes
// the first maxSynErrs of them ("line 12: unexpected `}`", "line 3: missing
// `;`") and returns the broken parts of the parse, sorted and disjoint: the
// ERROR nodes, and the nodes a MISSING one was to close (a block left
// unclosed, read as swallowing what follows it).
func syntaxErrors(root *sitter.Node, src []byte, li lineIndex) (int, []synErr, []region) {
	c := sitter.NewTreeCursor(root)
	defer c.Close()
	count := 0
	var errs []synErr
	var broken []region
	// The cursor's path: Node.Parent of a MISSING node at the end of its
	// parent can name a sibling that ends there too.
	path := []*sitter.Node{}
	for {
		n := c.CurrentNode()
		if n.HasError() {
			if n.IsError() || n.IsMissing() {
				count++
				s, e := int(n.StartByte()), int(n.EndByte())
				if len(errs) < maxSynErrs {
					errs = append(errs, synErr{s, e, describeError(n, src, li)})
				}
				if n.IsMissing() && len(path) > 0 {
					p := path[len(path)-1]
					s, e = int(p.StartByte()), int(p.EndByte())
				}
				broken = append(broken, region{li[li.line(s)-1], e})
			}
			if c.GoToFirstChild() {
				path = append(path, n)
				continue
			}
		}
		for !c.GoToNextSibling() {
			if !c.GoToParent() {
				return count, errs, mergeRegions(broken)
			}
			path = path[:len(path)-1]
		}
	}
}

// region is a byte range [s, e).
type region struct{ s, e int }

// mergeRegions sorts rs and joins those that overlap.
func mergeRegions(rs []region) []region {
	sort.Slice(rs, func(i, j int) bool { return rs[i].s < rs[j].s })
	out := rs[:0]
	for _, r := range rs {
		if n := len(out); n > 0 && r.s <= out[n-1].e {
			out[n-1].e = max(out[n-1].e, r.e)
			continue
		}
		out = append(out, r)
	}
	return out
}

// inRegions reports whether at lies in one of rs (sorted, disjoint).
func inRegions(rs []region, at int) bool {
	i := sort.Search(len(rs), func(i int) bool { return rs[i].e > at })
	return i < len(rs) && rs[i].s <= at
}

// describeError describes the ERROR or MISSING node n: "line 12: unexpected
// `}`", "line 3: missing `;`".
func describeError(n *sitter.Node, src []byte, li lineIndex) string {
	s, e := int(n.StartByte()), int(n.EndByte())
	line := strconv.Itoa(li.line(s))
	if n.IsMissing() {
		return "line " + line + ": missing `" + n.Type() + "`"
	}
	t := strings.TrimSpace(string(src[s:min(e, s+200)]))
	t, _, _ = strings.Cut(t, "\n")
	if len(t) > 40 {
		t = collapse([]byte(t[:40])) + "…"
	}
	return "line " + line + ": unexpected `" + strings.ToValidUTF8(t, "\uFFFD") + "`"
}

// errorDetail describes the first error within [s, e).
func errorDetail(errs []synErr, s, e int) string {
	for _, x := range errs {
		if x.start >= s && x.start <= e {
			return x.detail
		}
	}
	return ""
}

// goReceiver returns the receiver type of a Go method signature:
