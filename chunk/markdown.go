package chunk

import (
	"bytes"
	"path"
	"strings"

	"github.com/bcindex/bcindex/chunk/vocab"
)

// splitMarkdown makes one section chunk per heading, from the heading to the
// next heading of the same or a higher level; deeper sections nest inside.
// Headings are found by a line scan: ATX (# Title) and setext (Title over
// === or ---) headings outside fenced code blocks and front matter.
func splitMarkdown(p string, src []byte) File {
	li := newLineIndex(src)
	n := len(src)
	f := File{Language: "markdown"}
	f.Chunks = append(f.Chunks, Chunk{
		Kind: vocab.KindFile, Name: path.Base(p), Parent: -1,
		StartLine: 1, EndLine: li.count(n), EndByte: n,
	})
	type open struct{ level, idx int }
	var stack []open
	closeTo := func(level, at int) {
		for len(stack) > 0 && stack[len(stack)-1].level >= level {
			c := &f.Chunks[stack[len(stack)-1].idx]
			c.EndByte = trimEnd(src, c.StartByte, at)
			_, c.EndLine = li.lines(c.StartByte, c.EndByte)
			stack = stack[:len(stack)-1]
		}
	}
	var fence []byte // the opening fence while inside a fenced block
	prevStart, prevText := -1, ""
	for i, s := range li {
		if s >= n {
			break
		}
		e := lineStart(li, i+1, n)
		line := bytes.TrimRight(src[s:e], "\r\n")
		// Front matter: skip up to the closing --- at the top of the file.
		if i == 0 && string(bytes.TrimRight(line, " \t")) == "---" {
			fence = []byte("---")
			continue
		}
		if fence != nil {
			if t := bytes.TrimSpace(line); bytes.HasPrefix(t, fence) && len(bytes.Trim(t, string(fence[:1]))) == 0 ||
				string(fence) == "---" && string(t) == "..." {
				fence = nil
			}
			prevStart = -1
			continue
		}
		t := bytes.TrimLeft(line, " ")
		indent := len(line) - len(t)
		if indent < 4 && (bytes.HasPrefix(t, []byte("```")) || bytes.HasPrefix(t, []byte("~~~"))) {
			k := 0
			for k < len(t) && t[k] == t[0] {
				k++
			}
			fence = t[:k]
			prevStart = -1
			continue
		}
		level, title, start := 0, "", s
		if indent < 4 {
			level, title = atxHeading(t)
			if level == 0 && prevStart >= 0 {
				if lv := setextLevel(t); lv > 0 {
					level, title, start = lv, prevText, prevStart
				}
			}
		}
		if level > 0 {
			closeTo(level, start)
			parent := 0
			if len(stack) > 0 {
				parent = stack[len(stack)-1].idx
			}
			title = strings.ToValidUTF8(title, "\uFFFD")
			sl, _ := li.lines(start, start)
			f.Chunks = append(f.Chunks, Chunk{
				Kind: vocab.KindSection, Name: title, Parent: parent,
				Signature: collapse([]byte(strings.Repeat("#", level) + " " + title)),
				StartLine: sl, StartByte: start,
			})
			stack = append(stack, open{level, len(f.Chunks) - 1})
			prevStart = -1
			continue
		}
		// A setext underline must follow a single paragraph line.
		prevStart, prevText = -1, ""
		if indent < 4 && len(bytes.TrimSpace(t)) > 0 && (i == 0 || blankLine(src[lineStart(li, i-1, n):s])) && plainLine(t) {
			prevStart, prevText = s, string(bytes.TrimSpace(t))
		}
	}
	closeTo(0, n)
	return f
}

func lineStart(li lineIndex, i, n int) int {
	if i < len(li) {
		return li[i]
	}
	return n
}

// atxHeading parses "## Title ##" into (2, "Title").
func atxHeading(t []byte) (int, string) {
	k := 0
	for k < len(t) && t[k] == '#' {
		k++
	}
	if k == 0 || k > 6 || (k < len(t) && t[k] != ' ' && t[k] != '\t') {
		return 0, ""
	}
	title := strings.TrimSpace(string(t[k:]))
	if trimmed := strings.TrimRight(title, "#"); trimmed == "" || strings.HasSuffix(trimmed, " ") || strings.HasSuffix(trimmed, "\t") {
		title = strings.TrimSpace(trimmed)
	}
	return k, title
}

// setextLevel returns 1 for a === underline, 2 for ---, else 0.
func setextLevel(t []byte) int {
	t = bytes.TrimRight(t, " \t")
	if len(t) == 0 {
		return 0
	}
	c := t[0]
	if (c != '=' && c != '-') || len(bytes.Trim(t, string(c))) > 0 {
		return 0
	}
	if c == '=' {
		return 1
	}
	return 2
}

// plainLine reports whether t can be a setext heading's text rather than a
// list item, quote, table row or HTML.
func plainLine(t []byte) bool {
	switch t[0] {
	case '-', '*', '+', '>', '|', '<', '#', '=':
		return false
	}
	return !(t[0] >= '0' && t[0] <= '9' && bytes.IndexAny(t[:min(len(t), 10)], ".)") > 0)
}

func blankLine(b []byte) bool { return len(bytes.TrimSpace(b)) == 0 }

// trimEnd moves end back over trailing blank space, never before start.
func trimEnd(src []byte, start, end int) int {
	for end > start {
		switch src[end-1] {
		case ' ', '\t', '\r', '\n':
			end--
			continue
		}
		break
	}
	return end
}
