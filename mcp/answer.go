package mcp

import (
	"fmt"
	"strings"

	"github.com/bcindex/bcindex/search"
)

// An answer is read by a model that pays for every token, top to bottom,
// until it finds what it was looking for. Measured on the code-search
// suites (doc/agents.md has the figures), what made answers
// cheap was reaching further down the ranking for little: more hits, most
// of them one line, one per file, and code only where it is likely to
// answer. So the text of a search answer is, by default,
//
//   - ten files, each once, at its best chunk, in one line:
//     "N. path:a-b  breadcrumb  kind  (also c-d, e-f)", the lines of the
//     file's other chunks among the ranked ones after it;
//   - under the first two, their first four lines of code (from the
//     chunk's start, its doc comment included, without line numbers: the
//     header gives the first), and the signature when those lines do not
//     hold it;
//   - a tail of ninety further files, a line each, "path:a-b  (also c-d)"
//     (tail.go);
//
// with no score and no chunk ID: the structured result keeps both, and
// read_file reads a hit whole from its header. verbose=true writes the
// fuller form: ten chunks, each with numbered code and context, its
// signature, score and chunk ID.

// shape is how much of each hit an answer shows.
type shape struct {
	verbose  bool
	k        int // default hits
	context  int // default lines of context (verbose)
	lines    int // lines of code a hit shows
	snippets int // hits shown with code (compact)
	more     int // further files listed after the hits, a line each (compact)
	bytes    int // budget of the answer
	used     int // bytes of the answer so far
}

const (
	compactK, compactLines, compactSnippets = 10, 4, 2
	// compactMore is how many further files the tail lists by default: on
	// the dev suite a tail of 20, 40 and 90 files cost the same tokens to
	// the first answer (the lines above it the same), and 90 covered the
	// most targets within 1k and 2k tokens (doc/agents.md).
	compactMore = 90
	// alsoFiles is how many further files' worth of ranked chunks the
	// files' other lines (also) are read from, however long the tail.
	alsoFiles = 20
	// perFile is how many ranked chunks are read per file asked for: the
	// files of the best 3k chunks are enough for k files nearly always.
	perFile = 3
)

// newShape takes the defaults of the form asked for.
func newShape(in searchIn) *shape {
	if in.Verbose {
		return &shape{verbose: true, k: searchK, context: searchContext, lines: searchLines}
	}
	sh := &shape{k: compactK, lines: compactLines, snippets: compactSnippets, more: compactMore}
	if in.Snippets != nil {
		sh.snippets = max(*in.Snippets, 0)
	}
	return sh
}

// alsoDepth is how many of the ranked chunks the files' other lines
// (also) are read from: the chunks of the first alsoFiles further files'
// worth however long the tail is, so that a longer tail adds lines below
// and leaves the lines above as they were. (Read from every ranked chunk,
// a tail of 40 or 90 files lengthened the first hits' also and lowered
// recall within 500 tokens on the dev suite.)
func (sh *shape) alsoDepth(offset, k int) int {
	return (offset + k + min(sh.more, alsoFiles)) * perFile
}

// want is how many chunks to rank for hits offset to offset+k.
func (sh *shape) want(offset, k int) int {
	if sh.verbose {
		return offset + k
	}
	return min((offset+k+sh.more)*perFile, searchWindowMax)
}

// byFile keeps each file's best chunk, in rank order, with the lines of
// its other chunks; then the files from offset, k of them.
func byFile(hits []search.Hit, offset, k int) ([]search.Hit, map[string][][2]int) {
	also := map[string][][2]int{}
	var files []search.Hit
	for _, h := range hits {
		if lines, ok := also[h.Path]; ok {
			also[h.Path] = append(lines, [2]int{h.StartLine, h.EndLine})
			continue
		}
		also[h.Path] = nil
		files = append(files, h)
	}
	files = files[min(offset, len(files)):]
	return files[:min(k, len(files))], also
}

// fill puts as many hits into out as fit the byte budget (the JSON of
// each hit with verbose, the text an agent reads without) and returns the
// compact text of each.
func (sh *shape) fill(out *searchOut, ranked []search.Hit, offset, k int) []string {
	hits := ranked[min(offset, len(ranked)):]
	var also map[string][][2]int
	var tail []search.Hit
	if !sh.verbose {
		hits, _ = byFile(ranked, offset, k+sh.more)
		_, also = byFile(ranked[:min(len(ranked), sh.alsoDepth(offset, k))], offset, k+sh.more)
		tail = hits[min(k, len(hits)):]
		hits = hits[:min(k, len(hits))]
	}
	var blocks []string
	for i, h := range hits {
		ho := hitOut{Path: h.Path, StartLine: h.StartLine, EndLine: h.EndLine, Name: h.Name, Kind: h.Kind, Language: h.Language,
			Signature: h.Signature, Breadcrumb: h.Breadcrumb, Score: h.Score, Rev: h.Ref, Commit: h.Commit, Blob: h.Blob,
			ChunkID: h.ChunkID, AlsoIn: h.AlsoIn, Refs: h.Refs, Generated: h.GeneratedSummary}
		var size int
		if sh.verbose {
			ho.Snippet, _ = numbered(splitLines([]byte(h.Snippet)), h.SnippetStart, sh.bytes)
			size = jsonSize(ho)
		} else {
			var code []string
			if i < sh.snippets {
				code = codeLines(h, sh.lines)
			}
			ho.Snippet, ho.Also = strings.Join(code, "\n"), also[h.Path]
			blocks = append(blocks, compactBlock(len(out.Hits)+offset, ho, code, len(out.Revisions) > 0))
			size = len(blocks[len(blocks)-1])
		}
		if sh.used+size > sh.bytes && i > 0 {
			out.Truncated = true
			out.Note = fmt.Sprintf("truncated: %d more hits did not fit the %d-byte budget; continue with offset=%d, lower max_lines, or raise max_bytes (ceiling %d)",
				len(hits)-i, sh.bytes, offset+i, searchBytesMax)
			return blocks[:len(out.Hits)]
		}
		sh.used += size
		out.Hits = append(out.Hits, ho)
	}
	for i, h := range tail {
		if !sh.addTail(out, moreOut{Path: h.Path, StartLine: h.StartLine, EndLine: h.EndLine, Also: also[h.Path]}, len(tail)-i) {
			break
		}
	}
	return blocks
}

// codeLines are the first n lines of a hit's code, from the chunk's start
// (its snippet may begin earlier, with context), blank lines at either
// end dropped.
func codeLines(h search.Hit, n int) []string {
	lines := strings.Split(strings.TrimRight(h.Snippet, "\n"), "\n")
	if skip := h.StartLine - h.SnippetStart; skip > 0 && skip < len(lines) {
		lines = lines[skip:]
	}
	for len(lines) > 0 && strings.TrimSpace(lines[0]) == "" {
		lines = lines[1:]
	}
	lines = lines[:min(n, len(lines))]
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// compactBlock is one hit's text: "N. path:a-b  breadcrumb  kind  (also
// c-d)", the revisions holding it when several were searched, a generated
// summary, its signature unless the code shows it, its code.
func compactBlock(i int, h hitOut, code []string, revisions bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d. %s:%d-%d", i+1, h.Path, h.StartLine, h.EndLine)
	crumb := strings.Join(h.Breadcrumb[min(1, len(h.Breadcrumb)):], " › ")
	if crumb == "" {
		crumb = h.Name
	}
	if crumb != "" {
		b.WriteString("  " + crumb)
	}
	b.WriteString("  " + h.Kind)
	if len(h.Also) > 0 {
		b.WriteString("  (also " + spans(h.Also) + ")")
	}
	b.WriteString("\n")
	if revisions {
		b.WriteString(refsLine(h))
	}
	if g := h.Generated; g != nil {
		fmt.Fprintf(&b, "   generated by %s, not the author: %s\n", g.Model, g.Summary)
	}
	if sig := strings.TrimSpace(h.Signature); sig != "" && len(code) > 0 && !showsSignature(code, sig) {
		b.WriteString("   " + sig + "\n")
	}
	for _, l := range code {
		b.WriteString("   " + l + "\n")
	}
	return b.String()
}

// showsSignature reports whether one of the code lines is the signature
// or its beginning (white space aside).
func showsSignature(code []string, sig string) bool {
	sig = strings.Join(strings.Fields(sig), " ")
	for _, l := range code {
		l = strings.Join(strings.Fields(l), " ")
		if l != "" && (strings.HasPrefix(l, sig) || strings.HasPrefix(sig, l) && 2*len(l) > len(sig)) {
			return true
		}
	}
	return false
}

// renderCompact joins the hits' blocks and closes the answer with where
// it was searched and how to read a hit whole.
func renderCompact(o searchOut, blocks []string) string {
	var b strings.Builder
	for _, bl := range blocks {
		b.WriteString(bl)
	}
	b.WriteString(renderTail(o.More))
	if len(o.Revisions) > 0 {
		fmt.Fprintf(&b, "[%d hits in %d revisions]\n", len(o.Hits), len(o.Revisions))
	} else {
		fmt.Fprintf(&b, "[%d hits at %s (commit %.12s); read_file path start_line end_line reads one whole]\n", len(o.Hits), o.Rev, o.Commit)
	}
	if o.Note != "" {
		b.WriteString("[" + o.Note + "]\n")
	}
	return b.String()
}
