package timeline

import (
	"context"
	"fmt"
	"time"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/bcindex/bcindex/chunk/vocab"
	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/search"
	"github.com/bcindex/bcindex/store"
)

// Event types of a timeline.
const (
	EventAdded = "added"
	// EventExisted starts a timeline whose chunk was already there at the
	// oldest indexed commit, which has parents that were not indexed: it
	// appeared earlier than the indexed history shows.
	EventExisted = "existed"
	EventChanged = "changed"
	EventRenamed = "renamed"
	EventDeleted = "deleted"
)

// Event is one step of a chunk's history.
type Event struct {
	Type      string    `json:"type"`
	Commit    string    `json:"commit"`
	Date      time.Time `json:"date"`
	Author    string    `json:"author"`
	Path      string    `json:"path"`
	Name      string    `json:"name"`
	StartLine int       `json:"start_line"`
	EndLine   int       `json:"end_line"`
	Blob      string    `json:"blob,omitempty"`
	FromPath  string    `json:"from_path,omitempty"` // renamed: where it was
	FromName  string    `json:"from_name,omitempty"`
}

// Timeline is the history of one matching chunk, oldest event first.
type Timeline struct {
	Name    string  `json:"name"`
	Kind    string  `json:"kind"`
	Path    string  `json:"path"` // where it was last seen (with Name)
	Score   float64 `json:"score"`
	Present bool    `json:"present"` // still there at the tip
	Events  []Event `json:"events"`
}

// LogResult is what Log found.
type LogResult struct {
	Timelines []Timeline
	Commits   int // indexed commits of the history that were searched
	Tip       gitindex.Commit
}

// Log searches the union of the indexed first-parent history of opts.Rev
// (every commit whose tree listing is cached, i.e. was indexed) and returns,
// for the opts.K best-matching chunks, when each appeared, changed, moved and
// disappeared. Code deleted from the tip is found like any other.
func Log(ctx context.Context, repo *gitindex.Repo, opts search.Options) (*LogResult, error) {
	if opts.K <= 0 {
		opts.K = 5
	}
	if err := search.ParseQuery(&opts); err != nil {
		return nil, err
	}
	if err := search.CheckOptions(&opts); err != nil {
		return nil, err
	}
	all, err := repo.History(ctx, gitindex.HistoryOptions{Revs: []string{opts.Rev}})
	if err != nil {
		return nil, err
	}
	h := &history{repo: repo, rows: map[blobKey]*instance{}, absent: map[blobKey]bool{}}
	var cached []gitindex.HistoryCommit
	for _, c := range all {
		if gitindex.ListingCached(repo.IndexDir, c.Tree) {
			cached = append(cached, c)
		}
	}
	noHistory := fmt.Errorf("no indexed history of %s (run `git bcindex index --history N`): %w", opts.Rev, store.ErrNoIndex)
	if len(cached) == 0 {
		return nil, noHistory
	}
	res := &LogResult{}
	if len(all) > 0 {
		res.Tip = all[len(all)-1].Commit
	}
	model := ""
	if opts.Embedder != nil {
		model = opts.Embedder.ID()
	}
	snap, err := store.OpenSnapshot(repo.IndexDir, model)
	if err != nil {
		return nil, err
	}
	defer snap.Close()
	h.snap = snap
	// The listings are read one at a time: the ranking and the history
	// keep what they need of each, never all of them.
	b := search.NewRankingBuilder(repo, res.Tip, snap, &opts)
	var prev *gitindex.Listing
	for _, c := range cached {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		l, err := repo.CachedListing(c.Tree)
		if err != nil {
			continue // unreadable: as if not indexed
		}
		h.commits = append(h.commits, c)
		h.addListing(prev, l)
		b.Add(l)
		prev = l
	}
	res.Commits = len(h.commits)
	if len(h.commits) == 0 {
		return nil, noHistory
	}
	v := b.Ranking()
	v.LoadSummaries(&opts)
	ranked, err := v.Rank(ctx, &opts)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	for _, f := range ranked {
		if len(res.Timelines) >= opts.K || len(seen) >= 8*opts.K {
			break
		}
		seg := snap.Segments[f.Seg]
		row := seg.Row(f.Row)
		for row.Kind == vocab.KindBlock && row.Parent >= 0 {
			// A block's name carries its line ("if@L149"): follow the
			// definition around it instead.
			row = seg.Row(row.Parent)
		}
		if row.Name == "" && row.Kind != vocab.KindFile {
			continue // windows have no identity to follow
		}
		id := identity{path: v.PathOf(f), name: row.Name, kind: row.Kind}
		t := h.timeline(id)
		if len(t.Events) == 0 {
			continue
		}
		first := t.Events[0]
		key := first.Commit + "\x00" + first.Path + "\x00" + first.Name
		if seen[key] {
			continue
		}
		seen[key] = true
		t.Score = search.RoundScore(f.Score)
		res.Timelines = append(res.Timelines, t)
	}
	return res, nil
}

// identity names a chunk across commits: its file and its name.
type identity struct{ path, name, kind string }

// instance is a chunk of one blob.
type instance struct {
	blob               plumbing.Hash
	seg, row           int
	hash               [16]byte
	startLine, endLine int
	startByte, endByte int
}

type blobKey struct {
	blob       plumbing.Hash
	name, kind string
}

// history is the indexed first-parent history, oldest first.
type history struct {
	repo    *gitindex.Repo
	snap    *store.Snapshot
	commits []gitindex.HistoryCommit
	paths   map[string][]pathState // see addListing
	fresh   [][]gitindex.Entry     // per commit: ChangedEntries(previous, this)
	gone    [][]gitindex.Entry     // per commit: ChangedEntries(this, previous)
	rows    map[blobKey]*instance
	absent  map[blobKey]bool
	texts   map[plumbing.Hash][]byte
}

// lookup finds the chunk id names in commit i.
func (h *history) lookup(i int, id identity) *instance {
	blob, ok := h.blobAt(i, id.path)
	if !ok {
		return nil
	}
	return h.find(blob, id.name, id.kind)
}

// find returns the first chunk of a blob with that name and kind, cached by
// blob: a file unchanged across a thousand commits is looked at once.
func (h *history) find(blob plumbing.Hash, name, kind string) *instance {
	k := blobKey{blob, name, kind}
	if in, ok := h.rows[k]; ok {
		return in
	}
	if h.absent[k] {
		return nil
	}
	if loc, ok := h.snap.FindBlob(blob); ok {
		seg := h.snap.Segments[loc.Seg]
		for r := loc.First; r < loc.First+loc.N; r++ {
			if seg.Name(r) != name {
				continue
			}
			row := seg.Row(r)
			if row.Kind != kind {
				continue
			}
			in := &instance{blob: blob, seg: loc.Seg, row: r, hash: row.Hash, startLine: row.StartLine, endLine: row.EndLine, startByte: row.StartByte, endByte: row.EndByte}
			h.rows[k] = in
			return in
		}
	}
	h.absent[k] = true
	return nil
}

// timeline follows id from its first appearance (going back through renames)
// to the tip.
func (h *history) timeline(id identity) Timeline {
	t := Timeline{Name: id.name, Kind: id.kind, Path: id.path}
	start := -1
	for guard := 0; guard < 16; guard++ {
		start = -1
		for i := range h.commits {
			if h.lookup(i, id) != nil {
				start = i
				break
			}
		}
		if start <= 0 {
			break
		}
		prev, ok := h.predecessor(start, id)
		if !ok {
			break
		}
		id = prev
	}
	if start < 0 {
		return t
	}
	var cur *instance
	for i := start; i < len(h.commits); i++ {
		in := h.lookup(i, id)
		switch {
		case in == nil && cur != nil:
			if next, nin, ok := h.successor(i, id, cur); ok {
				e := h.event(EventRenamed, i, next, nin)
				e.FromPath, e.FromName = id.path, id.name
				t.Events = append(t.Events, e)
				id, cur = next, nin
				continue
			}
			t.Events = append(t.Events, h.event(EventDeleted, i, id, cur))
			cur = nil
		case in != nil && cur == nil:
			typ := EventAdded
			if i == 0 && h.commits[0].Parent != plumbing.ZeroHash {
				typ = EventExisted
			}
			t.Events = append(t.Events, h.event(typ, i, id, in))
			cur = in
		case in != nil && in.hash != cur.hash:
			t.Events = append(t.Events, h.event(EventChanged, i, id, in))
			cur = in
		case in != nil:
			cur = in
		}
	}
	t.Present = cur != nil
	if n := len(t.Events); n > 0 {
		t.Path, t.Name = t.Events[n-1].Path, t.Events[n-1].Name // as last seen
	}
	return t
}

func (h *history) event(typ string, i int, id identity, in *instance) Event {
	c := h.commits[i]
	e := Event{Type: typ, Commit: c.Hash.String(), Date: c.When, Author: c.Author, Path: id.path, Name: id.name,
		StartLine: in.startLine, EndLine: in.endLine}
	if typ != EventDeleted {
		e.Blob = in.blob.String()
	}
	return e
}
