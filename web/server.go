package web

import (
	"context"
	stdembed "embed"
	"fmt"
	"html/template"
	"io"
	"io/fs"
	"net"
	"net/http"
	"runtime/debug"
	"sort"
	"strconv"
	"sync"
	"time"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/indexing"
	"github.com/bcindex/bcindex/internal/safepath"
	"github.com/bcindex/bcindex/query"
	"github.com/bcindex/bcindex/search"
	"github.com/bcindex/bcindex/store"
)

//go:embed templates/*.html static/*
var assets stdembed.FS

// Options configure a Server.
type Options struct {
	Embedder embed.Embedder // nil: no vector arm
	// Ensure brings the index up to date before a page reads it (the
	// command passes indexer.Ensurer with its indexing options); nil: the
	// search pages answer with an error.
	Ensure indexing.Ensure
	Log    io.Writer // internal errors; nil: discarded
	// ExactPage is how many matching lines a page of the exact mode
	// shows; 0: 500.
	ExactPage int
}

// Server is the web page's HTTP handler for one repository.
type Server struct {
	// mu serialises requests: a go-git repository is not safe for
	// concurrent use.
	mu   sync.Mutex
	repo *gitindex.Repo
	opts Options
	tmpl *template.Template
	mux  *http.ServeMux
	// views keeps the index open across requests (ensure), closed by
	// Close.
	views indexing.Keeper
}

// New returns the handler serving repo.
func New(repo *gitindex.Repo, opts Options) (*Server, error) {
	tmpl, err := template.New("").Funcs(funcs).ParseFS(assets, "templates/*.html")
	if err != nil {
		return nil, fmt.Errorf("parse templates: %w", err)
	}
	s := &Server{repo: repo, opts: opts, tmpl: tmpl}
	s.views.Ensure = opts.Ensure
	static, _ := fs.Sub(assets, "static")
	s.mux = http.NewServeMux()
	s.mux.Handle("/static/", http.StripPrefix("/static/", http.FileServerFS(static)))
	s.mux.HandleFunc("/{$}", s.handleSearch)
	s.mux.HandleFunc("/file", s.handleFile)
	s.mux.HandleFunc("/log", s.handleLog)
	s.mux.HandleFunc("/commit", s.handleCommit)
	return s, nil
}

// Close closes the views of the index the server kept open across
// requests; the caller calls it once it serves no more requests.
func (s *Server) Close() { s.views.Close() }

// ServeHTTP answers reads only, and never panics at the client.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "read only: this page has no write actions", http.StatusMethodNotAllowed)
		return
	}
	defer func() {
		if p := recover(); p != nil {
			s.logf("bcindex serve: panic on %s: %v\n%s", r.URL, p, debug.Stack())
			http.Error(w, "internal error (please report it)", http.StatusInternalServerError)
		}
	}()
	w.Header().Set("Content-Security-Policy", "default-src 'self'; script-src 'none'; style-src 'self'")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	s.mux.ServeHTTP(w, r)
}

func (s *Server) logf(format string, args ...any) {
	if s.opts.Log != nil {
		fmt.Fprintf(s.opts.Log, format, args...)
	}
}

// LoopbackOnly wraps h to refuse requests naming a host other than a
// loopback address or localhost, for a server bound to loopback.
func LoopbackOnly(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host, _, err := net.SplitHostPort(r.Host)
		if err != nil {
			host = r.Host
		}
		if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
			http.Error(w, "this page answers only on loopback addresses (Host "+r.Host+" refused)", http.StatusForbidden)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// Serve listens on addr until ctx ends. ready, if not nil, receives the
// address actually bound (addr may ask for port 0).
func Serve(ctx context.Context, addr string, h http.Handler, ready func(net.Addr)) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", addr, err)
	}
	if tcp, ok := ln.Addr().(*net.TCPAddr); ok && tcp.IP.IsLoopback() {
		h = LoopbackOnly(h)
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	if ready != nil {
		ready(ln.Addr())
	}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
		shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(shut)
		return nil
	}
}

// page is what every template gets.
type page struct {
	Title string
	Form  form
	Refs  []string
	Error string
	Data  any
}

// form is the search form's state, kept across pages.
type form struct {
	Q, Ref, Mode, Path, Lang, Kind string
	K                              int
	Exact                          exactForm // mode "exact"
	// query is Q parsed once for the page: the search and the marks in
	// its snippets read it. The zero Query when Q is blank.
	query query.Query
	// NoSummaries (summaries=off) ranks and shows without the generated
	// summaries, as the CLI's --no-summaries.
	NoSummaries bool
}

// maxK is the most hits a page shows.
const maxK = 200

// readForm reads the form's state from the query; bad says what is wrong
// with a parameter ("" when nothing is), for a 400 page: a value out of
// range is refused, never replaced by the default without a word.
func readForm(r *http.Request, defK int) (f form, bad string) {
	q := r.URL.Query()
	f = form{Q: q.Get("q"), Ref: q.Get("ref"), Mode: q.Get("mode"), Path: q.Get("path"), Lang: q.Get("lang"), Kind: q.Get("kind"), K: defK}
	if f.Ref == "" {
		f.Ref = "HEAD"
	}
	if v := q.Get("k"); v != "" {
		k, err := strconv.Atoi(v)
		if err != nil || k < 1 || k > maxK {
			return f, fmt.Sprintf("k=%q: the number of hits must be a whole number from 1 to %d", v, maxK)
		}
		f.K = k
	}
	switch v := q.Get("summaries"); v {
	case "", "on":
	case "off":
		f.NoSummaries = true
	default:
		return f, fmt.Sprintf("summaries=%q: on (default) or off", v)
	}
	f.Exact = readExactForm(q)
	f.query, _ = query.Parse(f.Q)
	return f, ""
}

func (f form) options() search.Options {
	return search.Options{Parsed: &f.query, Rev: f.Ref, K: f.K, Mode: f.Mode, Path: f.Path, Lang: f.Lang, Kind: f.Kind, NoSummaries: f.NoSummaries}
}

// refs lists HEAD, the branches and the tags for the revision picker.
func (s *Server) refs() []string {
	out := []string{"HEAD"}
	iter, err := s.repo.Git.References()
	if err != nil {
		return out
	}
	var names []string
	iter.ForEach(func(ref *plumbing.Reference) error {
		if n := ref.Name(); n.IsBranch() || n.IsTag() || n.IsRemote() {
			names = append(names, n.Short())
		}
		return nil
	})
	sort.Strings(names)
	return append(out, names...)
}

func (s *Server) render(w http.ResponseWriter, status int, name string, p page) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	if err := s.tmpl.ExecuteTemplate(w, name, p); err != nil {
		s.logf("bcindex serve: render %s: %v\n", name, err)
	}
}

func (s *Server) handleSearch(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f, bad := readForm(r, 10)
	p := page{Title: "bcindex", Form: f, Refs: s.refs(), Error: bad}
	if bad != "" {
		s.render(w, http.StatusBadRequest, "search.html", p)
		return
	}
	if f.Q == "" {
		s.render(w, http.StatusOK, "search.html", p)
		return
	}
	p.Title = f.Q + " · bcindex"
	if f.Mode == "exact" {
		s.handleExact(w, r, p)
		return
	}
	opts := f.options()
	opts.Context, opts.MaxLines = 2, 12+2*2 // twelve lines of the hit and its context
	opts.Embedder = s.opts.Embedder
	plan, err := search.NewPlan(s.repo, opts)
	var v *store.View
	var done func()
	if err == nil {
		v, _, done, err = s.ensure(r.Context(), indexing.Request{Want: plan.Want, Parts: indexing.All})
	}
	var res *search.Result
	if err == nil {
		defer done()
		res, err = search.NewSearcher(v, plan).Search(r.Context(), opts.Parsed, opts)
	}
	if err != nil {
		p.Error = err.Error()
		s.render(w, http.StatusBadRequest, "search.html", p)
		return
	}
	p.Data = newResults(f, res)
	s.render(w, http.StatusOK, "search.html", p)
}

func (s *Server) handleFile(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f, bad := readForm(r, 10)
	f.Path = "" // the file's path, not a filter to carry to the other pages
	p := page{Title: r.URL.Query().Get("path") + " · bcindex", Form: f, Refs: s.refs(), Error: bad}
	lines := r.URL.Query().Get("lines")
	start, end := lineRange(lines)
	if bad == "" && lines != "" && start == 0 {
		p.Error = fmt.Sprintf("lines=%q: give a line or a range, as 12 or 12-20", lines)
	}
	if p.Error != "" {
		s.render(w, http.StatusBadRequest, "file.html", p)
		return
	}
	file, err := safepath.ReadFile(s.repo, f.Ref, r.URL.Query().Get("path"))
	if err != nil {
		p.Error = err.Error()
		s.render(w, http.StatusNotFound, "file.html", p)
		return
	}
	v := newFileView(file, &f.query, start, end)
	if f.Mode == "exact" {
		if err := markExact(&v, file.Content, f); err != nil {
			p.Error = err.Error()
			s.render(w, http.StatusBadRequest, "file.html", p)
			return
		}
	}
	p.Data = v
	s.render(w, http.StatusOK, "file.html", p)
}

// lineRange parses "12-20" (or "12"); zeros when absent or malformed.
func lineRange(v string) (int, int) {
	var a, b int
	if n, _ := fmt.Sscanf(v, "%d-%d", &a, &b); n == 1 {
		b = a
	}
	if a <= 0 || b < a {
		return 0, 0
	}
	return a, b
}
