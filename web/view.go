package web

import (
	"html/template"
	"net/url"
	"sort"
	"strconv"
	"strings"

	"github.com/bcindex/bcindex/internal/safepath"
	"github.com/bcindex/bcindex/lexical"
	"github.com/bcindex/bcindex/search"
)

var funcs = template.FuncMap{
	"short": func(s string) string {
		if len(s) > 10 {
			return s[:10]
		}
		return s
	},
	"join":  strings.Join,
	"score": func(f float64) string { return strconv.FormatFloat(f, 'f', 4, 64) },
	"add":   func(a, b int) int { return a + b },
	"modes": func() []string { return []string{"", "symbol", "text", "vector", "exact"} },
	"formArgs": func(p page, action, label, button string) formArgs {
		return formArgs{Form: p.Form, Refs: p.Refs, Action: action, Label: label, Button: button}
	},
}

// formArgs are the search form template's arguments.
type formArgs struct {
	Form                  form
	Refs                  []string
	Action, Label, Button string
}

// line is one numbered line of a snippet or file, with query tokens marked.
type line struct {
	N       int
	HTML    template.HTML
	InChunk bool // inside the hit's chunk (or the selected lines)
}

// marker wraps the parts of a line whose tokens are query tokens in <mark>,
// with the keyword index's tokenizer, so that "backoff" marks the Backoff
// of retryWithBackoff.
type marker map[string]bool

func newMarker(query string) marker {
	m := marker{}
	for _, t := range lexical.Tokens(query) {
		m[t] = true
	}
	return m
}

func (m marker) mark(text string) template.HTML {
	var hits []lexical.Span
	if len(m) > 0 {
		for _, s := range lexical.Spans(text) {
			if m[s.Token] {
				hits = append(hits, s)
			}
		}
	}
	sort.Slice(hits, func(i, j int) bool { return hits[i].Start < hits[j].Start })
	var b strings.Builder
	at := 0
	for i := 0; i < len(hits); {
		start, end := hits[i].Start, hits[i].End
		for i++; i < len(hits) && hits[i].Start <= end; i++ {
			end = max(end, hits[i].End)
		}
		b.WriteString(template.HTMLEscapeString(text[at:start]))
		b.WriteString("<mark>" + template.HTMLEscapeString(text[start:end]) + "</mark>")
		at = end
	}
	b.WriteString(template.HTMLEscapeString(text[at:]))
	return template.HTML(b.String())
}

// hitView is one search hit as the page shows it.
type hitView struct {
	search.Hit
	Href, LogHref string
	Lines         []line
	More          int // chunk lines not shown
}

type results struct {
	Hits []hitView
	Ref  string
}

func newResults(f form, res *search.Result) results {
	m := newMarker(f.Q)
	out := results{Ref: f.Ref}
	for _, h := range res.Hits {
		v := hitView{Hit: h}
		v.Href = "/file?" + url.Values{"ref": {h.Commit}, "path": {h.Path}, "q": {f.Q},
			"lines": {strconv.Itoa(h.StartLine) + "-" + strconv.Itoa(h.EndLine)}}.Encode() + "#L" + strconv.Itoa(h.StartLine)
		name := h.Name
		if name == "" {
			name = f.Q
		}
		v.LogHref = "/log?" + url.Values{"ref": {f.Ref}, "q": {name}, "path": {h.Path}}.Encode()
		lines := strings.Split(strings.TrimRight(h.Snippet, "\n"), "\n")
		for j, l := range lines {
			n := h.SnippetStart + j
			v.Lines = append(v.Lines, line{N: n, HTML: m.mark(l), InChunk: n >= h.StartLine && n <= h.EndLine})
		}
		if last := h.SnippetStart + len(lines) - 1; last < h.EndLine {
			v.More = h.EndLine - last
		}
		out.Hits = append(out.Hits, v)
	}
	return out
}

// fileView is a whole file at a revision.
type fileView struct {
	safepath.File
	Lines      []line
	Start, End int
}

func newFileView(f safepath.File, query string, start, end int) fileView {
	m := newMarker(query)
	v := fileView{File: f, Start: start, End: end}
	text := strings.TrimSuffix(string(f.Content), "\n")
	for i, l := range strings.Split(text, "\n") {
		n := i + 1
		v.Lines = append(v.Lines, line{N: n, HTML: m.mark(l), InChunk: n >= start && n <= end})
	}
	return v
}
