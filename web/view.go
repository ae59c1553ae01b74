package web

import (
	"html/template"
	"net/url"
	"strconv"
	"strings"

	"github.com/bcindex/bcindex/internal/safepath"
	"github.com/bcindex/bcindex/query"
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
	// count writes "1 line", "2 lines": n and the noun, plural unless n is 1.
	"count": func(n int, noun string) string {
		if n == 1 {
			return "1 " + noun
		}
		return strconv.Itoa(n) + " " + noun + "s"
	},
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

// mark escapes a line and wraps the parts whose tokens are query tokens
// in <mark> (query.Query's Marks: the keyword index's tokenizer, so that
// "backoff" marks the Backoff of retryWithBackoff).
func mark(q *query.Query, text string) template.HTML {
	var b strings.Builder
	at := 0
	for _, m := range q.Marks(text) {
		b.WriteString(template.HTMLEscapeString(text[at:m[0]]))
		b.WriteString("<mark>" + template.HTMLEscapeString(text[m[0]:m[1]]) + "</mark>")
		at = m[1]
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
			v.Lines = append(v.Lines, line{N: n, HTML: mark(&f.query, l), InChunk: n >= h.StartLine && n <= h.EndLine})
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

func newFileView(f safepath.File, q *query.Query, start, end int) fileView {
	v := fileView{File: f, Start: start, End: end}
	text := strings.TrimSuffix(string(f.Content), "\n")
	for i, l := range strings.Split(text, "\n") {
		n := i + 1
		v.Lines = append(v.Lines, line{N: n, HTML: mark(q, l), InChunk: n >= start && n <= end})
	}
	return v
}
