package search

import (
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/bits-and-blooms/bitset"
	"github.com/bmatcuk/doublestar/v4"
	"github.com/go-git/go-git/v5/plumbing"

	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/store"
)

// view is one revision's slice of the snapshot (or the union of several
// revisions'): which rows are visible, and at which paths.
type view struct {
	repo   *gitindex.Repo
	commit gitindex.Commit
	rev    string
	snap   *store.Snapshot
	allow  []*bitset.BitSet        // per segment
	paths  []map[int][]string      // per segment: first row of a blob → paths
	blobOf []map[int]plumbing.Hash // per segment: first row of a blob → blob
	first  [][]int32               // per segment: row → first row of its blob
}

// newView makes the rows of the listings' blobs visible (one listing for a
// revision; several for the union of a history), filtered by opts.
func newView(repo *gitindex.Repo, commit gitindex.Commit, snap *store.Snapshot, ls []*gitindex.Listing, opts *Options) *view {
	v := &view{repo: repo, commit: commit, rev: commit.Rev, snap: snap}
	ns := len(snap.Segments)
	v.allow = make([]*bitset.BitSet, ns)
	v.paths = make([]map[int][]string, ns)
	v.blobOf = make([]map[int]plumbing.Hash, ns)
	v.first = make([][]int32, ns)
	for i, seg := range snap.Segments {
		v.allow[i] = bitset.New(uint(seg.Rows()))
		v.paths[i] = map[int][]string{}
		v.blobOf[i] = map[int]plumbing.Hash{}
	}
	var seen map[pathBlob]bool
	if len(ls) > 1 {
		seen = map[pathBlob]bool{} // a history repeats most (path, blob) pairs
	}
	for _, l := range ls {
		v.add(l, opts, seen)
	}
	return v
}

type pathBlob struct {
	path string
	blob plumbing.Hash
}

func (v *view) add(l *gitindex.Listing, opts *Options, seen map[pathBlob]bool) {
	snap := v.snap
	var locs []store.BlobLoc
	if seen == nil {
		locs = snap.Locate(l) // one revision: usually located already
	}
	for i, e := range l.Entries {
		if e.Skip != gitindex.SkipNone {
			continue
		}
		if seen != nil {
			k := pathBlob{e.Path, e.Blob}
			if seen[k] {
				continue
			}
			seen[k] = true
		}
		if opts.Path != "" && !pathMatches(opts.Path, e.Path) {
			continue
		}
		var loc store.BlobLoc
		if locs != nil {
			loc = locs[i]
		} else if found, ok := snap.FindBlob(e.Blob); ok {
			loc = found
		} else {
			loc.Seg = -1
		}
		if loc.Seg < 0 || loc.N == 0 {
			continue
		}
		if ps, seen := v.paths[loc.Seg][loc.First]; seen {
			if !slices.Contains(ps, e.Path) {
				v.paths[loc.Seg][loc.First] = append(ps, e.Path)
			}
			continue
		}
		v.paths[loc.Seg][loc.First] = []string{e.Path}
		v.blobOf[loc.Seg][loc.First] = e.Blob
		if v.first[loc.Seg] == nil {
			v.first[loc.Seg] = make([]int32, snap.Segments[loc.Seg].Rows())
		}
		seg := snap.Segments[loc.Seg]
		for r := loc.First; r < loc.First+loc.N; r++ {
			v.first[loc.Seg][r] = int32(loc.First)
			if opts.Lang != "" || opts.Kind != "" {
				row := seg.Row(r)
				if opts.Lang != "" && !strings.EqualFold(row.Language, opts.Lang) {
					continue
				}
				if opts.Kind != "" && !kindMatch(row.Kind, opts.Kind) {
					continue
				}
			}
			v.allow[loc.Seg].Set(uint(r))
		}
	}
}

// PathMatches reports whether path p matches a --path glob, as search
// filters paths.
func PathMatches(glob, p string) bool { return pathMatches(glob, p) }

// pathMatches matches a glob against the whole path, or, for a pattern
// without a slash, against the base name too ("*.go" matches "a/b.go").
func pathMatches(glob, p string) bool {
	if ok, _ := doublestar.Match(glob, p); ok {
		return true
	}
	if !strings.Contains(glob, "/") {
		ok, _ := doublestar.Match(glob, path.Base(p))
		return ok
	}
	if ok, _ := doublestar.Match(strings.TrimSuffix(glob, "/")+"/**", p); ok {
		return true
	}
	return false
}

// cand is a candidate row and its score in one arm.
type cand struct {
	seg, row int
	score    float64
}

func sortCands(c []cand) {
	sort.Slice(c, func(i, j int) bool {
		if c[i].score != c[j].score {
			return c[i].score > c[j].score
		}
		if c[i].seg != c[j].seg {
			return c[i].seg < c[j].seg
		}
		return c[i].row < c[j].row
	})
}

// kindMatch reports whether a row's kind is one of the comma-separated kinds.
func kindMatch(kind, kinds string) bool {
	for _, k := range strings.Split(kinds, ",") {
		if strings.EqualFold(kind, strings.TrimSpace(k)) {
			return true
		}
	}
	return false
}
