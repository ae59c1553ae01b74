package agents

import (
	"bytes"
)

// The marked section tells an agent which bcindex tool answers what, so
// that it searches by meaning instead of grepping, and greps exactly when
// it needs every occurrence.
const (
	beginMark = "<!-- bcindex:begin (written by `git bcindex agents install`; `git bcindex agents uninstall` removes it) -->"
	endMark   = "<!-- bcindex:end -->"
)

const sectionBody = `## Code search: bcindex

This repository is indexed by bcindex; its MCP server (` + "`bcindex`" + `) answers from git, at any revision (` + "`rev`" + `). Use its tools before reading files one by one:

- **What code does something** (a behaviour, a concept, "where do we retry"): ` + "`search`" + `. Ranked chunks with their path and lines; ` + "`get_chunk`" + ` gives one whole.
- **Every occurrence of an exact string or regex** (an error message, the callers of a function, a config key): ` + "`grep`" + `. Complete and in path order, like git grep.
- **When did this change, who added or removed it**: ` + "`history`" + ` (first-parent commits where a string's count changed, with the lines).
- **Reading**: ` + "`read_file`" + ` for a line range, ` + "`get_chunk`" + ` for a hit in full, ` + "`file_chunks`" + ` for a file's outline, ` + "`list_directory`" + ` to look around.
`

// section is the whole marked section.
func section() string { return beginMark + "\n" + sectionBody + endMark + "\n" }

// installSection returns data with the marked section written: replaced
// where it is (an older wording), else appended.
func installSection(data []byte) []byte {
	if i, j, ok := findSection(data); ok {
		return append(append(append([]byte{}, data[:i]...), section()...), data[j:]...)
	}
	out := append([]byte{}, data...)
	if len(bytes.TrimSpace(out)) > 0 {
		if !bytes.HasSuffix(out, []byte("\n")) {
			out = append(out, '\n')
		}
		out = append(out, '\n')
	}
	return append(out, section()...)
}

// uninstallSection cuts the marked section out (and the blank line before
// it); nil when nothing else is left.
func uninstallSection(data []byte) []byte {
	i, j, ok := findSection(data)
	if !ok {
		return data
	}
	if i >= 2 && data[i-1] == '\n' && data[i-2] == '\n' {
		i--
	}
	out := append(append([]byte{}, data[:i]...), data[j:]...)
	if len(bytes.TrimSpace(out)) == 0 {
		return nil
	}
	return out
}

// findSection returns the section's bounds, its last newline included.
func findSection(data []byte) (start, end int, ok bool) {
	start = bytes.Index(data, []byte(beginMark))
	if start < 0 {
		return 0, 0, false
	}
	e := bytes.Index(data[start:], []byte(endMark))
	if e < 0 {
		return 0, 0, false
	}
	end = start + e + len(endMark)
	if end < len(data) && data[end] == '\n' {
		end++
	}
	return start, end, true
}

// hasSection reports whether data holds the current section.
func hasSection(data []byte) bool { return bytes.Contains(data, []byte(section())) }
