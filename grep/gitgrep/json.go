package gitgrep

import (
	"bytes"
	"encoding/json"
	"strings"
	"unicode/utf8"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/bcindex/bcindex/exact"
	"github.com/bcindex/bcindex/grep"
)

// jsonRecord is one line of grep --json. Text fields carry the bytes as a
// string when they are valid UTF-8; otherwise the _bytes field carries
// them (base64).
type jsonRecord struct {
	Path      string     `json:"path"`
	PathBytes []byte     `json:"path_bytes,omitempty"`
	Line      int        `json:"line,omitempty"`
	Text      *string    `json:"text,omitempty"`
	TextBytes []byte     `json:"text_bytes,omitempty"`
	Spans     [][2]int   `json:"spans,omitempty"`
	Count     *int       `json:"count,omitempty"`
	Before    []jsonLine `json:"before,omitempty"`
	After     []jsonLine `json:"after,omitempty"`
	Binary    bool       `json:"binary,omitempty"`
	Blob      string     `json:"blob,omitempty"`
	Refs      []jsonRef  `json:"refs"`
}

type jsonLine struct {
	Line int    `json:"line"`
	Text string `json:"text"`
}

type jsonRef struct {
	Name   string `json:"name"`
	Commit string `json:"commit"`
}

// jsonBase is the record of a file, without its lines: path is the name
// printed, blob the file's blob (none for a file read from disk).
func jsonBase(path string, blob plumbing.Hash) jsonRecord {
	base := jsonRecord{Path: path, Refs: []jsonRef{}}
	if !utf8.ValidString(path) {
		base.PathBytes = []byte(path)
	}
	if !blob.IsZero() {
		base.Blob = blob.String()
	}
	return base
}

// encodeLines writes one record per selected line, with before and after
// lines of context and the spans of its matches.
func encodeLines(enc *json.Encoder, base jsonRecord, content []byte, lines []exact.Line, before, after int, spans func(exact.Line) [][2]int) error {
	starts := lineStarts(content, before, after, lines)
	for _, l := range lines {
		rec := base
		text := content[l.Start:l.End]
		if utf8.Valid(text) {
			s := string(text)
			rec.Text = &s
		} else {
			rec.TextBytes = text
		}
		rec.Line, rec.Spans = l.Number, spans(l)
		for n := max(1, l.Number-before); n < l.Number; n++ {
			rec.Before = append(rec.Before, jsonLine{n, lineText(content, starts, n)})
		}
		for n := l.Number + 1; n <= l.Number+after && n < len(starts); n++ {
			rec.After = append(rec.After, jsonLine{n, lineText(content, starts, n)})
		}
		if err := enc.Encode(rec); err != nil {
			return err
		}
	}
	return nil
}

// lineStarts returns the byte offset of each line's start, lines counted
// from 1 (starts[n-1] is line n's start; the last entry is the end), or
// nil when no context is printed.
func lineStarts(content []byte, before, after int, lines []exact.Line) []int {
	if before == 0 && after == 0 || len(lines) == 0 {
		return nil
	}
	starts := []int{0}
	for i, b := range content {
		if b == '\n' {
			starts = append(starts, i+1)
		}
	}
	if starts[len(starts)-1] != len(content) {
		starts = append(starts, len(content))
	}
	return starts
}

func lineText(content []byte, starts []int, n int) string {
	return strings.TrimSuffix(string(content[starts[n-1]:starts[n]]), "\n")
}

// sourceJSON renders a file of a search over sources as JSON Lines: one
// object per selected line (or one per file with -c, -l, -L, or a binary
// file).
func sourceJSON(f *grep.File, src grep.Source, o *Options, lines []exact.Line, spans func(exact.Line) [][2]int) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	path := f.Path
	if !src.Blob.IsZero() {
		path = src.Name
	}
	base := jsonBase(path, f.Blob)
	base.Binary = f.Binary
	if src.Name != "" {
		base.Refs = append(base.Refs, jsonRef{Name: strings.TrimSuffix(src.Name, ":"), Commit: commitOf(src).String()})
	}
	switch {
	case o.nameOnly || o.unmatchName || f.Binary:
		enc.Encode(base)
	case o.count:
		n := len(lines)
		base.Count = &n
		enc.Encode(base)
	default:
		encodeLines(enc, base, f.Content, lines, max(o.before, 0), max(o.after, 0), spans)
	}
	return buf.Bytes()
}

// commitOf is the commit a source names, for JSON.
func commitOf(src grep.Source) plumbing.Hash {
	if src.Commit != nil {
		return src.Commit.Hash
	}
	return plumbing.ZeroHash
}
