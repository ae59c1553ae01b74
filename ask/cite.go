package ask

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/internal/httpapi"
	"github.com/bcindex/bcindex/internal/lazyre"
	"github.com/bcindex/bcindex/mcp"
)

// Citation is a line range of a file at a commit, as the answer cites it.
type Citation struct {
	Path   string `json:"path"`
	Start  int    `json:"start_line"`
	End    int    `json:"end_line"`
	Commit string `json:"commit"` // the full hash once verified; as written otherwise
	Text   string `json:"text"`   // as written in the answer
	// Quotes are the code the answer shows beside the citation: inline
	// code on its line, a fenced block just before or after it.
	Quotes []string `json:"quotes,omitempty"`
	// Dropped says why the citation failed its check; "" when it passed.
	Dropped string `json:"dropped,omitempty"`
}

func (c Citation) String() string {
	return fmt.Sprintf("%s:%d-%d@%.12s", c.Path, c.Start, c.End, c.Commit)
}

// citeRE matches path:start-end@commit and, so that no unchecked citation
// slips through, path:start-end and path:line with or without a commit.
// A path holds a dot or a slash, which keeps prose such as "step:1-2" out.
var citeRE = lazyre.New("([^\\s`'\"()\\[\\]<>{},;]*[./][^\\s`'\"()\\[\\]<>{},;:]*):([0-9]+)(?:-([0-9]+))?(?:@([0-9a-fA-F]{7,40}))?")

var inlineCode = lazyre.New("`([^`\n]+)`")

// found is one citation occurrence in the answer.
type found struct {
	c          Citation
	start, end int // byte offsets in the answer
}

// findCitations returns the citations of answer with the quotes beside
// each: an inline code span belongs to the first citation after it on its
// line, else to the last one before it; a fenced block to the citation on
// the line just before it, else on the line just after it (blank lines
// between allowed).
func findCitations(answer string) []found {
	var out []found
	lines := strings.SplitAfter(answer, "\n")
	fences := fencedBlocks(lines)
	off := 0
	for li, line := range lines {
		var here []int // indexes into out of this line's citations
		for _, m := range citeRE().FindAllStringSubmatchIndex(line, -1) {
			c := Citation{Path: strings.TrimPrefix(line[m[2]:m[3]], "./"), Text: line[m[0]:m[1]]}
			c.Start, _ = strconv.Atoi(line[m[4]:m[5]])
			c.End = c.Start
			if m[6] >= 0 {
				c.End, _ = strconv.Atoi(line[m[6]:m[7]])
			}
			if m[8] >= 0 {
				c.Commit = strings.ToLower(line[m[8]:m[9]])
			}
			here = append(here, len(out))
			out = append(out, found{c: c, start: off + m[0], end: off + m[1]})
		}
		if len(here) > 0 {
			for _, m := range inlineCode().FindAllStringSubmatchIndex(line, -1) {
				owner := here[len(here)-1]
				for _, k := range here {
					if out[k].start-off >= m[1] {
						owner = k
						break
					}
				}
				if q := line[m[2]:m[3]]; !citeRE().MatchString(q) {
					out[owner].c.Quotes = append(out[owner].c.Quotes, q)
				}
			}
			for _, f := range fences {
				if f.before == li {
					k := here[len(here)-1]
					out[k].c.Quotes = append(out[k].c.Quotes, f.text)
				}
				if f.after == li && (f.before < 0 || !citeRE().MatchString(lines[f.before])) {
					out[here[0]].c.Quotes = append(out[here[0]].c.Quotes, f.text)
				}
			}
		}
		off += len(line)
	}
	return out
}

// fence is a fenced code block: its text and the lines holding a citation
// it may belong to (the nearest non-blank line before and after it).
type fence struct {
	text          string
	before, after int
}

func fencedBlocks(lines []string) []fence {
	var out []fence
	for i := 0; i < len(lines); i++ {
		if !strings.HasPrefix(strings.TrimSpace(lines[i]), "```") {
			continue
		}
		j := i + 1
		for j < len(lines) && !strings.HasPrefix(strings.TrimSpace(lines[j]), "```") {
			j++
		}
		f := fence{text: strings.Join(lines[i+1:min(j, len(lines))], ""), before: -1, after: -1}
		for k := i - 1; k >= 0; k-- {
			if strings.TrimSpace(lines[k]) != "" {
				f.before = k
				break
			}
		}
		for k := j + 1; k < len(lines); k++ {
			if strings.TrimSpace(lines[k]) != "" {
				f.after = k
				break
			}
		}
		out = append(out, f)
		i = j
	}
	return out
}

// verifier checks citations against the repository under the MCP server's
// path rules.
type verifier struct {
	repo   *gitindex.Repo
	srv    *mcp.Server
	commit string // the revision asked about, for citations without @commit
}

// check fills c.Commit with the full hash, or c.Dropped with the reason.
func (v verifier) check(c *Citation) {
	commit := c.Commit
	if commit == "" {
		commit = v.commit
	}
	rc, err := v.repo.Resolve(commit)
	if err != nil {
		c.Dropped = fmt.Sprintf("no commit %s in this repository", commit)
		return
	}
	c.Commit = rc.Hash.String()
	if c.Start < 1 || c.End < c.Start {
		c.Dropped = fmt.Sprintf("%d-%d is not a line range", c.Start, c.End)
		return
	}
	f, err := v.srv.ReadFile(c.Commit, c.Path)
	if err != nil {
		c.Dropped = err.Error()
		return
	}
	lines := strings.Split(strings.TrimSuffix(string(f.Content), "\n"), "\n")
	if c.End > len(lines) {
		c.Dropped = fmt.Sprintf("%s has %d lines at %.12s", c.Path, len(lines), c.Commit)
		return
	}
	cited := squash(strings.Join(lines[c.Start-1:c.End], "\n"))
	for _, q := range c.Quotes {
		if s := squash(q); s != "" && !strings.Contains(cited, s) {
			c.Dropped = fmt.Sprintf("lines %d-%d do not contain the quoted %q", c.Start, c.End, clip(strings.TrimSpace(q), 60))
			return
		}
	}
}

// squash folds runs of white space, so that a quote re-indented or
// re-wrapped by the model still matches.
func squash(s string) string { return strings.Join(strings.Fields(s), " ") }

// clip shortens s to at most n bytes on a rune boundary, marking the cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return httpapi.TruncateUTF8(s, n) + "…"
}
