package chunk

import (
	"bytes"
	"strconv"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/bcindex/bcindex/chunk/vocab"
)

// Edit chunks content, a new version of a file whose previous version
// prevContent was split into prev, by parsing only what the edit touched.
// prev may come from another path (blobs are chunked once): it must be of
// the language content is at path.
//
// The top-level definitions of prev that the edit left alone are kept: those
// before it with the whole line each ends on, those after it with the blank
// line above each and the newline before that line; the latter move with
// the edit. The file's header (everything before the first definition:
// package clause, imports) must be unchanged. The parser reads only the
// stretch between the kept definitions (with the header when the stretch
// holds nothing to chunk), with positions in the whole file, so the same
// walker makes the same chunks of it. Windows and the metadata that Split
// derives from the chunk list (qualified names, access, imports) are then
// derived again over the whole file.
//
// prev must be Split's result for prevContent, except that the fields
// derived afterwards may be empty and Doc may be cut short: kept chunks
// take Doc, Signature and Name from prev.Chunks, the file chunk its Doc and
// Signature (the package clause's), and kept chunks their Imports too
// when chunk 0's list the names the imports bind now (so prev's Imports
// must be Split's, or empty in every chunk). ok is false when the edit cannot
// be chunked this way (another language than Go, syntax errors, a changed
// header, nothing to keep); the caller then uses Split. Go's top-level
// declarations end at the line that ends them and take as doc only the
// comments right above them, which is what makes the kept ones exact;
// TestEditMatchesSplit checks it on real files.
func Edit(path string, content, prevContent []byte, prev File) (f File, ok bool) {
	lang := vocab.DetectLanguage(path, content)
	if !Editable(path) || lang != "go" || prev.Language != lang || prev.Fallback || prev.SyntaxErrors > 0 ||
		len(content) > maxParseBytes || len(prevContent) > maxParseBytes {
		return File{}, false
	}
	defer func() {
		if r := recover(); r != nil {
			f, ok = File{}, false
		}
	}()
	old, ok := treeChunks(prev.Chunks, len(prevContent))
	if !ok {
		return File{}, false
	}
	var tops []int // indexes in old of the top-level definitions
	for i := 1; i < len(old); i++ {
		if old[i].Parent == 0 {
			tops = append(tops, i)
		}
	}
	if len(tops) == 0 {
		return File{}, false
	}
	// Only a declaration's own chunk can border the part parsed again: the
	// type specs of a `type ( ... )` group are top-level chunks too, inside
	// the group's parentheses.
	starts := make([]int, len(tops))
	for i, t := range tops {
		starts[i] = old[t].StartByte
	}
	enclosing := goEnclosing(prevContent, starts) // -1: outside brackets
	pre, suf := commonEnds(prevContent, content)
	header := old[tops[0]].StartByte
	if enclosing[0] < -1 {
		return File{}, false
	}
	if enclosing[0] >= 0 {
		// The first definition is a spec of a group (`const (`): the
		// header ends where the line opening the group starts.
		header = lineStartOf(prevContent, enclosing[0])
	}
	if header > pre {
		return File{}, false // package clause or imports changed
	}
	// Kept before the edit: definitions up to the last one outside brackets
	// whose last line is unchanged.
	a := 0
	for i := 0; i < len(tops) && lineEnd(prevContent, old[tops[i]].EndByte) <= pre; i++ {
		if enclosing[i] == -1 {
			a = i + 1
		}
	}
	// Kept after it: the definitions from the first one past a with a blank
	// line above it that the edit did not touch (all later ones lie in the
	// unchanged suffix too).
	delta := len(content) - len(prevContent)
	b := a
	for ; b < len(tops); b++ {
		// The newline before the blank line must be unchanged too: a blank
		// line's lone newline may be what ends a line the edit added.
		if above := blankLineAbove(prevContent, old[tops[b]].StartByte); enclosing[b] == -1 && above > 0 && above-1 >= len(prevContent)-suf {
			break
		}
	}
	midStart := header
	if a > 0 {
		midStart = old[tops[a-1]].EndByte
	}
	midEnd := len(content)
	if b < len(tops) {
		midEnd = old[tops[b]].StartByte + delta
		if blankLineAbove(prevContent, old[tops[b]].StartByte)+delta < midStart {
			return File{}, false
		}
	}
	if a == 0 && b == len(tops) || midStart > midEnd {
		return File{}, false
	}

	li := newLineIndex(content)
	// The header is unchanged, and all the file chunk takes from it is the
	// package clause's doc and signature: the stretch is parsed alone, and
	// with the header only when it holds nothing to chunk (a deletion).
	mid, ok := File{}, false
	if midStart < midEnd {
		mid, ok = splitRanges(lang, path, content, []sitter.Range{byteRange(content, li, max(midStart, header), midEnd)}, parseBaseMicros)
		if ok {
			mid.Chunks[0].Doc, mid.Chunks[0].Signature = prev.Chunks[0].Doc, prev.Chunks[0].Signature
		}
	}
	if !ok {
		ranges := []sitter.Range{byteRange(content, li, 0, header)}
		if midStart > header {
			ranges = append(ranges, byteRange(content, li, midStart, midEnd))
		} else {
			ranges[0] = byteRange(content, li, 0, midEnd)
		}
		mid, ok = splitRanges(lang, path, content, ranges, parseBaseMicros)
	}
	if !ok || mid.SyntaxErrors > 0 || mid.Chunks[0].SyntaxError {
		return File{}, false
	}

	// Splice: the file chunk of the new parse, the kept chunks before, the
	// new parse's chunks, the kept chunks after (moved).
	cut := len(old)
	if b < len(tops) {
		cut = tops[b]
	}
	keepBefore := len(old)
	if a < len(tops) {
		keepBefore = tops[a]
	}
	out := make([]Chunk, 0, keepBefore+len(mid.Chunks)+len(old)-cut)
	out = append(out, mid.Chunks[0])
	out = append(out, old[1:keepBefore]...)
	base := len(out) - 1
	for _, c := range mid.Chunks[1:] {
		if c.StartByte < midStart || c.EndByte > midEnd {
			return File{}, false
		}
		if c.Parent > 0 {
			c.Parent += base
		}
		out = append(out, c)
	}
	lines := bytes.Count(content, []byte{'\n'}) - bytes.Count(prevContent, []byte{'\n'})
	shift := len(out) - cut
	for _, c := range old[cut:] {
		if c.Kind == vocab.KindBlock {
			name, ok := strings.CutSuffix(c.Name, "@L"+strconv.Itoa(c.StartLine))
			if !ok {
				return File{}, false
			}
			c.Name = name + "@L" + strconv.Itoa(c.StartLine+lines)
		}
		c.StartByte += delta
		c.EndByte += delta
		c.StartLine += lines
		c.EndLine += lines
		if c.Parent > 0 {
			c.Parent += shift
		}
		out = append(out, c)
	}
	f = File{Language: lang, Chunks: out}
	if f.check(len(content)) != nil {
		return File{}, false
	}
	// A kept chunk's bytes are unchanged: with the same names bound by the
	// imports, it uses the same ones as before, and its text is not
	// scanned for them again.
	imports := fileImports(lang, content)
	same := sameNames(imports, prev.Chunks[0].Imports)
	for i := range out {
		if from := i >= 1 && i < keepBefore || i >= len(out)-(len(old)-cut); from && same {
			out[i].importsKept = true
			if len(out[i].Imports) == 0 {
				out[i].Imports = nil
			}
		} else if from {
			out[i].Imports = nil
		}
	}
	splitLong(&f, content)
	annotateWith(&f, content, imports)
	return f, true
}

// sameNames reports whether names holds exactly the sorted list of the
// keys of set (as chunk 0's Imports lists them).
func sameNames(set map[string]bool, names []string) bool {
	if len(set) != len(names) {
		return false
	}
	for _, n := range names {
		if !set[n] {
			return false
		}
	}
	return true
}

// Editable reports whether Edit may chunk files at path (Go files): callers
// fetch the previous version only for those.
func Editable(path string) bool { return vocab.DetectLanguage(path, nil) == "go" }

// treeChunks returns what splitTree made of a file that Split turned into
// chunks: chunks without the windows splitLong added over long stretches
// and without the metadata annotate derived. ok is false when chunks is not
// a clean parse of a file of n bytes (windows in place of a parse, syntax
// errors).
func treeChunks(chunks []Chunk, n int) ([]Chunk, bool) {
	if len(chunks) == 0 || chunks[0].Kind != vocab.KindFile || chunks[0].EndByte != n || chunks[0].SyntaxError {
		return nil, false
	}
	idx := make([]int, len(chunks)) // new index, -1 for dropped
	out := make([]Chunk, 0, len(chunks))
	for i, c := range chunks {
		if c.SyntaxError {
			return nil, false
		}
		if c.Kind == vocab.KindWindow {
			if c.Parent != 0 {
				return nil, false // windows of a definition: not made by splitLong for Go
			}
			idx[i] = -1
			continue
		}
		if i > 0 && (c.Parent < 0 || c.Parent >= i || idx[c.Parent] < 0) {
			return nil, false
		}
		idx[i] = len(out)
		if i > 0 {
			c.Parent = idx[c.Parent]
		}
		// Imports stay: Edit keeps them when the imports bind the same names.
		c.QualifiedName, c.Access, c.Decorators, c.ErrorDetail = "", "", nil, ""
		out = append(out, c)
	}
	return out, true
}
