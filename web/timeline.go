package web

import (
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/internal/safepath"
	"github.com/bcindex/bcindex/query"
	"github.com/bcindex/bcindex/timeline"
)

// The timeline chart: one row per matching chunk, the first-parent history
// left (oldest) to right (the tip), a bar while the chunk exists and a mark
// at each event, each mark a link to its commit.
const (
	chartLeft  = 280 // room for the row labels
	chartPlot  = 640
	chartRight = 50
	rowHeight  = 34
	chartTop   = 30
)

type chart struct {
	Width, Height int
	PlotLeft      int
	PlotRight     int
	AxisY         int
	Rows          []chartRow
	Ticks         []tick
	Commits       int // commits on the axis
	Indexed       int // of those, indexed ones searched
	Events        []eventRow
}

type chartRow struct {
	Y, TextY   int
	X1, X2     int
	Label, Sub string
	Href       string
	Present    bool
	Marks      []chartMark
}

type chartMark struct {
	X, Y  int
	Type  string
	Title string
	Href  string
}

type tick struct {
	X     int
	Label string
}

// eventRow is the chart's data as a table, for reading and for keyboards.
type eventRow struct {
	timeline.Event
	Chunk, Href string
}

func (s *Server) handleLog(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f, bad := readForm(r, 5)
	p := page{Title: "timeline · bcindex", Form: f, Refs: s.refs(), Error: bad}
	if bad != "" {
		s.render(w, http.StatusBadRequest, "log.html", p)
		return
	}
	if f.Q == "" {
		s.render(w, http.StatusOK, "log.html", p)
		return
	}
	p.Title = f.Q + " · timeline · bcindex"
	opts := f.options()
	opts.Embedder = s.opts.Embedder
	res, err := timeline.Log(r.Context(), s.repo, opts)
	if err == nil && len(res.Timelines) > 0 {
		var hist []gitindex.HistoryCommit
		hist, err = s.repo.History(r.Context(), gitindex.HistoryOptions{Revs: []string{f.Ref}})
		if err == nil {
			p.Data = newChart(f, res, hist)
		}
	}
	if err != nil {
		p.Error = err.Error()
		s.render(w, http.StatusBadRequest, "log.html", p)
		return
	}
	if res.Commits == 0 {
		p.Error = "no indexed commit in the history of " + f.Ref + ": index it with `git bcindex index --history N`"
	}
	s.render(w, http.StatusOK, "log.html", p)
}

func newChart(f form, res *timeline.LogResult, hist []gitindex.HistoryCommit) chart {
	c := chart{PlotLeft: chartLeft, PlotRight: chartLeft + chartPlot, Commits: len(hist), Indexed: res.Commits}
	c.Width = chartLeft + chartPlot + chartRight
	c.Height = chartTop + len(res.Timelines)*rowHeight + 40
	c.AxisY = chartTop + len(res.Timelines)*rowHeight + 6
	pos := make(map[string]int, len(hist))
	for i, h := range hist {
		pos[h.Hash.String()] = i
	}
	x := func(i int) int {
		if len(hist) <= 1 {
			return chartLeft + chartPlot/2
		}
		return chartLeft + i*chartPlot/(len(hist)-1)
	}
	for _, i := range tickIndexes(len(hist), 6) {
		c.Ticks = append(c.Ticks, tick{X: x(i), Label: hist[i].When.Format("2006-01-02")})
	}
	for ti, t := range res.Timelines {
		y := chartTop + ti*rowHeight + rowHeight/2
		row := chartRow{Y: y, TextY: y + 4, Label: t.Name, Sub: t.Path, Present: t.Present, X2: x(len(hist) - 1)}
		if row.Label == "" {
			row.Label = t.Kind
		}
		chunk := row.Label + " (" + t.Path + ")"
		if len(t.Events) > 0 {
			row.X1 = x(pos[t.Events[0].Commit])
		}
		for _, e := range t.Events {
			href := commitHref(f.Q, e)
			row.Marks = append(row.Marks, chartMark{X: x(pos[e.Commit]), Y: y, Type: e.Type, Href: href,
				Title: fmt.Sprintf("%s %s: %s %.10s %s", e.Type, chunk, e.Date.Format("2006-01-02"), e.Commit, e.Author)})
			if e.Type == timeline.EventDeleted {
				row.X2 = x(pos[e.Commit])
			}
			c.Events = append(c.Events, eventRow{Event: e, Chunk: chunk, Href: href})
		}
		if t.Present {
			row.Href = "/file?" + url.Values{"ref": {f.Ref}, "path": {t.Path}, "q": {f.Q}}.Encode()
		}
		c.Rows = append(c.Rows, row)
	}
	return c
}

// tickIndexes spreads up to n axis labels over m commits.
func tickIndexes(m, n int) []int {
	if m == 0 {
		return nil
	}
	if m <= n {
		n = m
	}
	var out []int
	for k := 0; k < n; k++ {
		i := 0
		if n > 1 {
			i = k * (m - 1) / (n - 1)
		}
		if len(out) == 0 || out[len(out)-1] != i {
			out = append(out, i)
		}
	}
	return out
}

func commitHref(q string, e timeline.Event) string {
	v := url.Values{"rev": {e.Commit}, "path": {e.Path}, "type": {e.Type}, "q": {q}}
	if e.StartLine > 0 {
		v.Set("lines", strconv.Itoa(e.StartLine)+"-"+strconv.Itoa(e.EndLine))
	}
	return "/commit?" + v.Encode()
}

// commitView is a commit with the chunk an event points at.
type commitView struct {
	Hash, Author, Message, Subject string
	When                           time.Time
	Parents                        []string
	Event                          string
	File                           *fileView
	FileRev                        string // the commit, or its parent for a deletion
	Note                           string
}

func (s *Server) handleCommit(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	q := r.URL.Query()
	f, bad := readForm(r, 5)
	p := page{Title: "commit · bcindex", Form: f, Refs: s.refs(), Error: bad}
	if bad != "" {
		s.render(w, http.StatusBadRequest, "commit.html", p)
		return
	}
	rev := q.Get("rev")
	if rev == "" {
		rev = q.Get("ref") // the revision picker's name for it
	}
	if rev == "" {
		p.Error = "name the commit with rev: /commit?rev=REV"
		s.render(w, http.StatusBadRequest, "commit.html", p)
		return
	}
	c, err := s.repo.Resolve(rev)
	var v commitView
	if err == nil {
		v, err = s.commitView(c.Hash, q, &f.query)
	}
	if err != nil {
		p.Error = err.Error()
		s.render(w, http.StatusNotFound, "commit.html", p)
		return
	}
	p.Title = v.Subject + " · bcindex"
	p.Data = v
	s.render(w, http.StatusOK, "commit.html", p)
}

func (s *Server) commitView(h plumbing.Hash, q url.Values, asked *query.Query) (commitView, error) {
	obj, err := s.repo.Git.CommitObject(h)
	if err != nil {
		return commitView{}, fmt.Errorf("read commit %s: %w", h, err)
	}
	v := commitView{Hash: h.String(), Author: obj.Author.Name, When: obj.Author.When, Message: obj.Message, Event: q.Get("type")}
	v.Subject, _, _ = strings.Cut(strings.TrimSpace(obj.Message), "\n")
	for _, ph := range obj.ParentHashes {
		v.Parents = append(v.Parents, ph.String())
	}
	path := q.Get("path")
	if path == "" {
		return v, nil
	}
	v.FileRev = v.Hash
	if v.Event == timeline.EventDeleted {
		if len(v.Parents) == 0 {
			return v, nil
		}
		v.FileRev = v.Parents[0] // show what was deleted, as it was before
		v.Note = "deleted by this commit; shown as it was in its parent"
	}
	file, err := safepath.ReadFile(s.repo, v.FileRev, path)
	if err != nil {
		v.Note = err.Error()
		return v, nil
	}
	start, end := lineRange(q.Get("lines"))
	fv := newFileView(file, asked, start, end)
	if start > 0 && start <= len(fv.Lines) {
		lo, hi := max(start-4, 0), min(end+3, len(fv.Lines))
		fv.Lines = fv.Lines[lo:hi]
	}
	v.File = &fv
	return v, nil
}
