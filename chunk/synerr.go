package chunk

import (
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

// syntaxErrors counts the ERROR and MISSING nodes under root and describes
// the first maxSynErrs of them: "line 12: unexpected `}`", "line 3: missing
// `;`".
func syntaxErrors(root *sitter.Node, src []byte, li lineIndex) (int, []synErr) {
	c := sitter.NewTreeCursor(root)
	defer c.Close()
	count := 0
	var errs []synErr
	for {
		n := c.CurrentNode()
		if n.HasError() {
			if n.IsError() || n.IsMissing() {
				count++
				if len(errs) < maxSynErrs {
					errs = append(errs, synErr{int(n.StartByte()), int(n.EndByte()), describeError(n, src, li)})
				}
			}
			if c.GoToFirstChild() {
				continue
			}
		}
		for !c.GoToNextSibling() {
			if !c.GoToParent() {
				return count, errs
			}
		}
	}
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
