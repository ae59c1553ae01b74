package chunk

import (
	"bytes"
	"encoding/json"
	"io"
	"path"
	"strings"

	"github.com/bcindex/bcindex/chunk/vocab"
)

// Documents: JSON, YAML and TOML are chunked by top-level keys holding
// structure (an object, a list, a table, a nested block), named by the key;
// scalar one-liners stay in the file chunk. Plain text is chunked by
// paragraphs. Long keys and paragraphs get windows (splitLong).

// docFile starts the File of a document.
func docFile(lang, p string, src []byte) (File, lineIndex) {
	li := newLineIndex(src)
	n := len(src)
	f := File{Language: lang}
	f.Chunks = append(f.Chunks, Chunk{
		Kind: vocab.KindFile, Name: path.Base(p), Parent: -1,
		StartLine: 1, EndLine: li.count(n), EndByte: n,
	})
	return f, li
}

// addKey appends a key chunk for [s, e), its signature the line at sig.
func addKey(f *File, li lineIndex, src []byte, kind, name string, s, sig, e int) {
	e = trimEnd(src, s, e)
	if e <= s || sig >= e {
		return
	}
	le := sig
	for le < e && src[le] != '\n' {
		le++
	}
	sl, el := li.lines(s, e)
	f.Chunks = append(f.Chunks, Chunk{
		Kind: kind, Name: collapse([]byte(name)), Parent: 0,
		Signature: strings.TrimSpace(strings.TrimRight(collapse(src[sig:le]), "{[(")),
		StartLine: sl, EndLine: el, StartByte: s, EndByte: e,
	})
}

// splitJSON chunks the keys of a top-level object whose values are objects
// or arrays. ok is false when content is not a JSON object.
func splitJSON(p string, src []byte) (File, bool) {
	f, li := docFile("json", p, src)
	dec := json.NewDecoder(bytes.NewReader(src))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return f, false
	}
	for dec.More() {
		ks := int(dec.InputOffset())
		for ks < len(src) && (isBlank(src[ks]) || src[ks] == ',') {
			ks++
		}
		t, err := dec.Token()
		if err != nil {
			return f, false
		}
		key, _ := t.(string)
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return f, false
		}
		if len(raw) > 0 && (raw[0] == '{' || raw[0] == '[') {
			addKey(&f, li, src, vocab.KindKey, key, ks, ks, int(dec.InputOffset()))
		}
	}
	if _, err := dec.Token(); err != nil && err != io.EOF {
		return f, false
	}
	return f, true
}

// splitYAML chunks top-level keys followed by indented lines or a block
// value; comment lines directly above a key belong to it. Document markers
// (---) end a key.
func splitYAML(p string, src []byte) (File, bool) {
	f, li := docFile("yaml", p, src)
	n := len(src)
	type key struct {
		name            string
		start, key, end int
		nested          bool
	}
	var keys []key
	commentStart := -1
	for i, s := range li {
		if s >= n {
			break
		}
		e := lineStart(li, i+1, n)
		line := bytes.TrimRight(src[s:e], "\r\n")
		switch {
		case len(bytes.TrimSpace(line)) == 0:
			commentStart = -1
			continue
		case line[0] == '#':
			if commentStart < 0 {
				commentStart = s
			}
			continue
		case line[0] == ' ' || line[0] == '\t' || line[0] == '-' && !bytes.HasPrefix(line, []byte("---")):
			if len(keys) > 0 && keys[len(keys)-1].end < 0 {
				keys[len(keys)-1].nested = true
			}
			commentStart = -1
			continue
		}
		// A column-0 line: a new key, a document marker or a scalar.
		if len(keys) > 0 && keys[len(keys)-1].end < 0 {
			end := s
			if commentStart >= 0 {
				end = commentStart
			}
			keys[len(keys)-1].end = end
		}
		start := s
		if commentStart >= 0 {
			start = commentStart
		}
		commentStart = -1
		name, rest, ok := bytes.Cut(line, []byte(":"))
		if !ok || bytes.HasPrefix(line, []byte("---")) || bytes.HasPrefix(line, []byte("...")) {
			continue
		}
		rest = bytes.TrimSpace(rest)
		k := key{name: strings.Trim(string(bytes.TrimSpace(name)), `"'`), start: start, key: s, end: -1}
		// Block scalars and flow collections spanning lines count as nested.
		k.nested = len(rest) > 0 && (rest[0] == '|' || rest[0] == '>')
		keys = append(keys, k)
	}
	if len(keys) > 0 && keys[len(keys)-1].end < 0 {
		keys[len(keys)-1].end = n
	}
	for _, k := range keys {
		if k.nested {
			addKey(&f, li, src, vocab.KindKey, k.name, k.start, k.key, k.end)
		}
	}
	return f, len(keys) > 0
}

// splitTOML chunks tables ([name] and [[name]]) to the next table, with the
// comments directly above them, and top-level values spanning lines.
func splitTOML(p string, src []byte) (File, bool) {
	f, li := docFile("toml", p, src)
	n := len(src)
	open, header, name, commentStart := -1, -1, "", -1
	valueEnd := 0 // lines before this byte belong to a multi-line value
	flush := func(end int) {
		if open >= 0 {
			addKey(&f, li, src, vocab.KindKey, name, open, header, end)
		}
		open = -1
	}
	for i, s := range li {
		if s >= n {
			break
		}
		if s < valueEnd {
			continue
		}
		e := lineStart(li, i+1, n)
		line := bytes.TrimSpace(src[s:e])
		switch {
		case len(line) == 0:
			commentStart = -1
		case line[0] == '#':
			if commentStart < 0 {
				commentStart = s
			}
		case line[0] == '[' && s == lineStartOf(src, s):
			start := s
			if commentStart >= 0 {
				start = commentStart
			}
			flush(start)
			open, header, commentStart = start, s, -1
			name = strings.Trim(string(bytes.TrimSpace(bytes.Trim(bytes.SplitN(line, []byte("#"), 2)[0], " \t"))), "[] \t")
			name = strings.Trim(name, "[]")
		default:
			commentStart = -1
			if open < 0 && src[s] != ' ' && src[s] != '\t' {
				// A top-level value: a chunk when it spans lines.
				if k, v, ok := bytes.Cut(line, []byte("=")); ok {
					v = bytes.TrimSpace(v)
					if len(v) > 0 && (v[0] == '[' || v[0] == '{' || bytes.HasPrefix(v, []byte(`"""`)) || bytes.HasPrefix(v, []byte("'''"))) && !closesOnLine(v) {
						end := tomlValueEnd(li, src, i+1, v[0])
						valueEnd = end
						addKey(&f, li, src, vocab.KindKey, strings.Trim(string(bytes.TrimSpace(k)), `"'`), s, s, end)
					}
				}
			}
		}
	}
	flush(n)
	// Top-level values are found in order but tables close later: sort.
	sortChunks(f.Chunks[1:])
	return f, true
}

func lineStartOf(src []byte, s int) int {
	for s > 0 && src[s-1] != '\n' {
		s--
	}
	return s
}

// closesOnLine reports whether a TOML value opened on a line closes there.
func closesOnLine(v []byte) bool {
	switch {
	case bytes.HasPrefix(v, []byte(`"""`)), bytes.HasPrefix(v, []byte("'''")):
		return bytes.Count(v, v[:3]) >= 2
	case v[0] == '[':
		return bytes.Count(v, []byte("[")) <= bytes.Count(v, []byte("]"))
	case v[0] == '{':
		return bytes.Count(v, []byte("{")) <= bytes.Count(v, []byte("}"))
	}
	return true
}

// tomlValueEnd finds the end of a multi-line value starting before line i:
// the line that starts with its closing bracket or quotes.
func tomlValueEnd(li lineIndex, src []byte, i int, open byte) int {
	n := len(src)
	closer := map[byte]string{'[': "]", '{': "}", '"': `"""`, '\'': "'''"}[open]
	for ; i < len(li) && li[i] < n; i++ {
		e := lineStart(li, i+1, n)
		if bytes.Contains(src[li[i]:e], []byte(closer)) && (open == '"' || open == '\'' || bytes.HasPrefix(bytes.TrimSpace(src[li[i]:e]), []byte(closer))) {
			return e
		}
	}
	return n
}

// sortChunks orders sibling chunks by start (insertion sort: nearly sorted).
func sortChunks(cs []Chunk) {
	for i := 1; i < len(cs); i++ {
		for j := i; j > 0 && cs[j].StartByte < cs[j-1].StartByte; j-- {
			cs[j], cs[j-1] = cs[j-1], cs[j]
		}
	}
}

// paraMinLines: consecutive short paragraphs are grouped into one chunk of
// at least this many lines.
const paraMinLines = 8

// splitText chunks plain text by paragraphs, grouping short ones, named by
// their first words.
func splitText(lang, p string, src []byte) (File, bool) {
	f, li := docFile(lang, p, src)
	ps := paragraphs(src, 0, len(src))
	for i := 0; i < len(ps); {
		s, lines := ps[i].s, 0
		j := i
		for j < len(ps) && (j == i || lines < paraMinLines && lines+ps[j].lines <= windowLines) {
			lines += ps[j].lines
			j++
		}
		e := trimEnd(src, s, ps[j-1].e)
		if e > s {
			sl, el := li.lines(s, e)
			f.Chunks = append(f.Chunks, Chunk{
				Kind: vocab.KindParagraph, Name: firstWords(src[s:e], 8), Parent: 0,
				StartLine: sl, EndLine: el, StartByte: s, EndByte: e,
			})
		}
		i = j
	}
	return f, len(f.Chunks) > 1
}

// firstWords returns up to n words of b, as a name.
func firstWords(b []byte, n int) string {
	fs := strings.Fields(strings.ToValidUTF8(string(b[:min(len(b), 400)]), "\uFFFD"))
	if len(fs) > n {
		fs = fs[:n]
	}
	return collapse([]byte(strings.Join(fs, " ")))
}
