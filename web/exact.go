package web

import (
	"html/template"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/bcindex/bcindex/exact"
	"github.com/bcindex/bcindex/grep"
	"github.com/bcindex/bcindex/indexing"
	"github.com/bcindex/bcindex/store"
)

// Exact mode: every line matching a fixed string or a regex, as git grep
// finds them, grouped by file. Unlike the ranked modes it is complete, so
// a page shows a slice of the lines and links to the next one.
const (
	exactPage      = 500  // matching lines per page, unless Options.ExactPage
	exactLineBytes = 1000 // of a line's text; longer lines show a window around the match
)

// exactForm are the exact mode's own fields of the search form.
type exactForm struct {
	Fixed, ICase, Word bool
	Offset             int // matching lines skipped, for the next page
}

func readExactForm(q url.Values) exactForm {
	f := exactForm{Fixed: q.Get("fixed") != "", ICase: q.Get("icase") != "", Word: q.Get("word") != ""}
	if n, err := strconv.Atoi(q.Get("offset")); err == nil && n > 0 {
		f.Offset = n
	}
	return f
}

func (f form) matcher() (*exact.Matcher, error) {
	return exact.Compile([]string{f.Q}, exact.Options{Fixed: f.Exact.Fixed, IgnoreCase: f.Exact.ICase, Word: f.Exact.Word})
}

// exactQuery is the URL query that repeats an exact search (at ref, from
// offset), for links to the file view and to the next page.
func (f form) exactQuery(ref string, offset int) url.Values {
	v := url.Values{"q": {f.Q}, "ref": {ref}, "mode": {"exact"}}
	for name, on := range map[string]bool{"fixed": f.Exact.Fixed, "icase": f.Exact.ICase, "word": f.Exact.Word} {
		if on {
			v.Set(name, "1")
		}
	}
	if f.Path != "" {
		v.Set("path", f.Path)
	}
	if offset > 0 {
		v.Set("offset", strconv.Itoa(offset))
	}
	return v
}

type exactResults struct {
	Ref, Commit string
	Files       []exactFile
	Lines       int    // matching lines shown
	From, To    int    // their positions among all matching lines, from 1
	Next        string // link to the next page; "" on the last
}

type exactFile struct {
	Path, Href string
	Lines      []exactLine
}

type exactLine struct {
	N    int
	Href string
	HTML template.HTML
}

// handleExact answers the search page in exact mode.
func (s *Server) handleExact(w http.ResponseWriter, r *http.Request, p page) {
	f := p.Form
	m, err := f.matcher()
	if err != nil {
		p.Error = err.Error()
		s.render(w, http.StatusBadRequest, "exact.html", p)
		return
	}
	opts := grep.Options{Matcher: m, Rev: f.Ref}
	if f.Path != "" {
		if err := opts.Paths.AddGlob(f.Path); err != nil {
			p.Error = err.Error() + ": use a glob like pkg/**/*.go, *.py or !vendor/**"
			s.render(w, http.StatusBadRequest, "exact.html", p)
			return
		}
	}
	pageLines := exactPage
	if s.opts.ExactPage > 0 {
		pageLines = s.opts.ExactPage
	}
	res := exactResults{Ref: f.Ref, From: f.Exact.Offset + 1}
	skip := f.Exact.Offset
	want, err := grep.Plan(s.repo, opts)
	var v *store.View
	var done func()
	if err == nil {
		v, _, done, err = s.ensure(r.Context(), indexing.Request{Want: want, Parts: indexing.Exact})
	}
	if err != nil {
		p.Error = err.Error()
		s.render(w, http.StatusBadRequest, "exact.html", p)
		return
	}
	defer done()
	st, err := grep.Grep(r.Context(), v, opts, func(g *grep.File) error {
		var ef *exactFile
		for _, l := range g.Lines {
			if skip > 0 {
				skip--
				continue
			}
			if res.Lines == pageLines {
				res.Next = "/?" + f.exactQuery(f.Ref, f.Exact.Offset+pageLines).Encode()
				return grep.ErrStop
			}
			if ef == nil {
				res.Files = append(res.Files, exactFile{Path: g.Path})
				ef = &res.Files[len(res.Files)-1]
			}
			text, spans := exact.Excerpt(g.Content[l.Start:l.End], l.Spans, exactLineBytes)
			ef.Lines = append(ef.Lines, exactLine{N: l.Number, HTML: markSpans(text, spans)})
			res.Lines++
		}
		return nil
	})
	if err != nil {
		p.Error = err.Error()
		s.render(w, http.StatusBadRequest, "exact.html", p)
		return
	}
	res.To = f.Exact.Offset + res.Lines
	if len(st.Revisions) > 0 {
		res.Commit = st.Revisions[0].Hash.String()
	}
	// Links name the commit, not the ref, so that they keep showing what
	// was found even after the branch moves.
	for i := range res.Files {
		ef := &res.Files[i]
		base := f.exactQuery(res.Commit, 0)
		base.Set("path", ef.Path)
		ef.Href = "/file?" + base.Encode()
		for j := range ef.Lines {
			n := strconv.Itoa(ef.Lines[j].N)
			base.Set("lines", n)
			ef.Lines[j].Href = "/file?" + base.Encode() + "#L" + n
		}
	}
	p.Data = res
	s.render(w, http.StatusOK, "exact.html", p)
}

// markSpans escapes text and wraps its spans (byte offsets, in order) in
// <mark>.
func markSpans(text string, spans [][2]int) template.HTML {
	var b strings.Builder
	at := 0
	for _, sp := range spans {
		if sp[0] < at || sp[1] > len(text) {
			continue
		}
		b.WriteString(template.HTMLEscapeString(text[at:sp[0]]))
		b.WriteString("<mark>" + template.HTMLEscapeString(text[sp[0]:sp[1]]) + "</mark>")
		at = sp[1]
	}
	b.WriteString(template.HTMLEscapeString(text[at:]))
	return template.HTML(b.String())
}

// markExact marks the matches of the exact search in a file view, in place
// of the query's tokens.
func markExact(v *fileView, content []byte, f form) error {
	m, err := f.matcher()
	if err != nil {
		return err
	}
	m.Lines(content, func(l exact.Line) bool {
		if l.Number > len(v.Lines) {
			return false
		}
		text, spans := exact.Excerpt(content[l.Start:l.End], l.Spans, l.End-l.Start)
		v.Lines[l.Number-1].HTML = markSpans(text, spans)
		return true
	})
	return nil
}
