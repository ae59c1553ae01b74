package pickaxe

import (
	"bytes"
	"context"
	"fmt"
	"runtime"
	"sync"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"golang.org/x/sync/errgroup"

	"github.com/bcindex/bcindex/exact"
	"github.com/bcindex/bcindex/gitindex"
)

// Candidates reports whether a blob may hold a match. It may say true of
// any blob; false must mean the blob certainly holds none, so that the
// pickaxe can skip it unread. An index of the blobs' n-grams answers it
// (store.Snapshot.MayHold). Search calls it from one goroutine at a time.
type Candidates func(plumbing.Hash) bool

// AllBlobs is the Candidates of no index: every blob is read.
func AllBlobs(plumbing.Hash) bool { return true }

// Options select what Search looks for.
type Options struct {
	Pattern
	Grep      bool              // -G: an added or removed line matches; else -S: the count changed
	Text      bool              // -G: look into binary files too (git's --text)
	PathMatch func(string) bool // only these paths; nil: all
	Max       int               // stop after this many commits, newest first; 0: no limit
	Oldest    bool              // search from the oldest commit (with Max 1: when it appeared)
	// CommitsOnly says only the commits and their files are wanted: a
	// file's lines may be left out where only git's diff could place
	// them, and the search spares that diff.
	CommitsOnly bool
	Candidates  Candidates // nil: AllBlobs
	Matcher     Matcher    // nil: Compile(Pattern)
}

// FileMatch is one path of a commit whose matches changed.
type FileMatch struct {
	Path     string `json:"path"`
	Old      string `json:"old_blob,omitempty"`
	New      string `json:"new_blob,omitempty"`
	OldCount int    `json:"old_count"` // -S: occurrences before and after
	NewCount int    `json:"new_count"`
	Added    []Line `json:"added,omitempty"`
	Removed  []Line `json:"removed,omitempty"`
}

// CommitMatch is a commit that changed the matches of at least one file.
type CommitMatch struct {
	Commit  string      `json:"commit"`
	Date    time.Time   `json:"date"`
	Author  string      `json:"author"`
	Subject string      `json:"subject"`
	Files   []FileMatch `json:"files"`
}

// Stats say how much work a search did.
type Stats struct {
	Commits   int // commits of the history looked at
	Pairs     int // changed paths looked at
	Skipped   int // of them, passed over because neither side was a candidate
	BlobsRead int
	GitDiffs  int // changes only git's own diff could decide (-G) or show the lines of
	Records   int // changes decided from their records, without blobs
}

// Search runs the pickaxe over history (oldest first, as History returns
// it) and returns the matching commits newest first, or oldest first with
// opts.Oldest. The commits are the ones `git log --first-parent
// --no-renames -S/-G` lists.
func Search(ctx context.Context, repo *gitindex.Repo, history []Commit, opts Options) ([]CommitMatch, Stats, error) {
	m := opts.Matcher
	if m == nil {
		var err error
		if m, err = Compile(opts.Pattern); err != nil {
			return nil, Stats{}, err
		}
	}
	s := &searcher{repo: repo, opts: opts, m: m, cand: AllBlobs, counts: map[plumbing.Hash]int{}}
	if opts.Candidates != nil {
		s.cand = serialized(opts.Candidates)
	}
	if s.usesRecords(ctx, history) {
		out, err := s.searchRecords(ctx, history)
		return out, s.stats, err
	}
	order := make([]*Commit, len(history))
	for i := range history {
		order[i] = &history[len(history)-1-i]
		if opts.Oldest {
			order[i] = &history[i]
		}
	}
	var out []CommitMatch
	for len(order) > 0 {
		n := min(len(order), windowCommits)
		ms, err := s.window(ctx, order[:n])
		if err != nil {
			return nil, s.stats, err
		}
		for _, cm := range ms {
			out = append(out, cm)
			if opts.Max > 0 && len(out) >= opts.Max {
				return out, s.stats, nil
			}
		}
		order = order[n:]
	}
	return out, s.stats, nil
}

// windowCommits is how many commits are searched at once, their changes
// spread over the cores; a search stopping at its first match reads at
// most this many commits more than it needs.
const windowCommits = 64

// window searches commits and returns those that match, in their order.
func (s *searcher) window(ctx context.Context, commits []*Commit) ([]CommitMatch, error) {
	type task struct {
		commit int
		ch     gitindex.FileChange
		fm     *FileMatch
	}
	var tasks []task
	for i, c := range commits {
		s.stats.Commits++
		for _, ch := range c.Changes {
			if ch.From == ch.To || (s.opts.PathMatch != nil && !s.opts.PathMatch(ch.Path)) {
				continue // a mode change alone moves no match
			}
			s.stats.Pairs++
			if (ch.From.IsZero() || !s.cand(ch.From)) && (ch.To.IsZero() || !s.cand(ch.To)) {
				s.stats.Skipped++
				continue
			}
			tasks = append(tasks, task{commit: i, ch: ch})
		}
	}
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(runtime.GOMAXPROCS(0))
	for i := range tasks {
		t := &tasks[i]
		g.Go(func() error {
			fm, err := s.change(gctx, t.ch)
			if err != nil {
				return fmt.Errorf("pickaxe %s in %s: %w", t.ch.Path, commits[t.commit].Hash, err)
			}
			t.fm = fm
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	var out []CommitMatch
	for _, t := range tasks {
		if t.fm == nil {
			continue
		}
		c := commits[t.commit]
		if len(out) == 0 || out[len(out)-1].Commit != c.Hash.String() {
			out = append(out, CommitMatch{Commit: c.Hash.String(), Date: c.When, Author: c.Author, Subject: c.Subject})
		}
		out[len(out)-1].Files = append(out[len(out)-1].Files, *t.fm)
	}
	return out, nil
}

type searcher struct {
	repo   *gitindex.Repo
	opts   Options
	m      Matcher
	cand   Candidates
	mu     sync.Mutex
	counts map[plumbing.Hash]int // per blob, within this search: see measure
	stats  Stats
	// recordOpts accepts the records made with the diff settings that
	// apply (-G); nil accepts all.
	recordOpts func(*diffsFile) bool
	plan       *exact.Query // what the records' filters are tested with
}

// change decides whether one changed path changed the matches, as git's
// diffcore-pickaxe decides it for one file pair.
func (s *searcher) change(ctx context.Context, ch gitindex.FileChange) (*FileMatch, error) {
	fm := &FileMatch{Path: ch.Path}
	if !ch.From.IsZero() {
		fm.Old = ch.From.String()
	}
	if !ch.To.IsZero() {
		fm.New = ch.To.String()
	}
	// -S compares counts; -G needs a matching line on one side at least.
	// Both are kept per blob: a file's new blob is its old one next time.
	var old, new []byte
	var err error
	if fm.OldCount, old, err = s.measure(ch.From, ch.FromMode); err != nil {
		return nil, err
	}
	if fm.NewCount, new, err = s.measure(ch.To, ch.ToMode); err != nil {
		return nil, err
	}
	if fm.OldCount == fm.NewCount && (!s.opts.Grep || fm.OldCount == 0) {
		return nil, nil
	}
	if s.opts.Grep {
		fm.OldCount, fm.NewCount = 0, 0 // not counts: whether a line matched
	}
	if old == nil {
		if old, err = s.content(ch.From, ch.FromMode); err != nil {
			return nil, err
		}
	}
	if new == nil {
		if new, err = s.content(ch.To, ch.ToMode); err != nil {
			return nil, err
		}
	}
	if binary := isBinary(old) || isBinary(new); binary && (!s.opts.Grep || !s.opts.Text) {
		if s.opts.Grep {
			return nil, nil // git log -G passes binary files over
		}
		return fm, nil // -S: the counts say it; a binary file has no lines to show
	}
	added, removed, open, unaligned := changedMatches(s.m, old, new)
	fm.Added, fm.Removed = added, removed
	// Where the blobs cannot say, git's diff of the two decides: for -G
	// whether a matching line moved at all, and for the lines shown
	// which copies of a matching line are the added or removed ones
	// (the ones its records hold too). A submodule's line is never both.
	both := !ch.From.IsZero() && !ch.To.IsZero() && ch.FromMode != filemode.Submodule && ch.ToMode != filemode.Submodule
	gitDecides := both && (open && s.opts.Grep || unaligned && !s.opts.CommitsOnly)
	if gitDecides {
		s.mu.Lock()
		s.stats.GitDiffs++
		s.mu.Unlock()
		if fm.Added, fm.Removed, err = gitDiffMatches(ctx, s.repo.CommonDir, s.m, ch.From, ch.To); err != nil {
			return nil, err
		}
	}
	if s.opts.Grep && len(fm.Added) == 0 && len(fm.Removed) == 0 {
		return nil, nil
	}
	if s.opts.CommitsOnly && unaligned && !gitDecides {
		fm.Added, fm.Removed = nil, nil // not git's lines: not shown
	}
	return fm, nil
}

// measure returns what the search keeps of an object: for -S its number
// of occurrences, for -G 1 if some line may match (the whole content is
// matched, a superset of its lines) and 0 if none can; 0 for an absent
// object or one the candidates rule out. It returns the content when it
// had to read it.
func (s *searcher) measure(h plumbing.Hash, mode filemode.FileMode) (int, []byte, error) {
	if h.IsZero() || !s.cand(h) {
		return 0, nil, nil
	}
	s.mu.Lock()
	n, ok := s.counts[h]
	s.mu.Unlock()
	if ok {
		return n, nil, nil
	}
	b, err := s.content(h, mode)
	if err != nil {
		return 0, nil, err
	}
	if !s.opts.Grep {
		n = s.m.Count(b)
	} else if n = 0; matchLine(s.m, b) {
		n = 1
	}
	s.mu.Lock()
	s.counts[h] = n
	s.mu.Unlock()
	return n, b, nil
}

// content is what git diffs for an object: a blob's bytes, or for a
// submodule the line git shows for the commit it points at.
func (s *searcher) content(h plumbing.Hash, mode filemode.FileMode) ([]byte, error) {
	if h.IsZero() {
		return nil, nil
	}
	if mode == filemode.Submodule {
		return []byte("Subproject commit " + h.String() + "\n"), nil
	}
	s.mu.Lock()
	s.stats.BlobsRead++
	s.mu.Unlock()
	return s.repo.ReadBlob(h)
}

// serialized lets the search's workers share a predicate that is not safe
// for concurrent use (an index's, which reads postings lazily), and asks
// it once per blob.
func serialized(c Candidates) Candidates {
	var mu sync.Mutex
	seen := map[plumbing.Hash]bool{}
	return func(h plumbing.Hash) bool {
		mu.Lock()
		defer mu.Unlock()
		v, ok := seen[h]
		if !ok {
			v = c(h)
			seen[h] = v
		}
		return v
	}
}

// isBinary is git's buffer_is_binary: a NUL among the first 8000 bytes.
func isBinary(b []byte) bool {
	return bytes.IndexByte(b[:min(len(b), 8000)], 0) >= 0
}
