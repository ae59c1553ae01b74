package search

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/store"
)

// RefHit is one searched revision that holds a hit's content, and where.
type RefHit struct {
	Name      string `json:"name"`
	Commit    string `json:"commit"`
	Path      string `json:"path"`
	StartLine int    `json:"start_line"`
	EndLine   int    `json:"end_line"`
}

// searchMany runs one query over several revisions at once: the view is
// the union of their trees, so each distinct blob is ranked once however
// many revisions share it, and the hits then learn which revisions hold
// their content.
func searchMany(ctx context.Context, repo *gitindex.Repo, opts Options, revs []gitindex.Revision) (*Result, error) {
	if opts.Worktree {
		return nil, fmt.Errorf("--worktree searches HEAD with uncommitted changes; it does not combine with several revisions")
	}
	all, err := resolveRevisions(repo, revs)
	if err != nil {
		return nil, err
	}
	// Refs naming the same commit share its listing; so do commits with
	// the same tree.
	var uniq []gitindex.Commit
	seen := map[plumbing.Hash]bool{}
	for _, c := range all {
		if !seen[c.Hash] {
			seen[c.Hash] = true
			uniq = append(uniq, c)
		}
	}
	sets, err := resolveAll(repo, append(append([]string{}, opts.OnlyIn...), opts.NotIn...))
	if err != nil {
		return nil, err
	}
	res := &Result{Commit: all[0], Revisions: all}
	rd, err := ready(ctx, repo, append(uniq, sets...), &opts, res)
	if err != nil {
		return nil, err
	}
	defer rd.Snap.Close()
	listings := rd.Listings
	treeOf := map[plumbing.Hash]int{}
	var trees []*gitindex.Listing
	var located [][]store.BlobLoc
	for i, l := range listings[:len(uniq)] {
		if _, ok := treeOf[l.Tree]; !ok {
			treeOf[l.Tree] = len(trees)
			trees = append(trees, l)
			located = append(located, rd.Located[i])
		}
	}
	view := newView(repo, all[0], rd.Snap, trees, located, &opts)
	view.distinctContent()
	if len(sets) > 0 {
		setLs := listings[len(uniq):]
		view.restrictToSets(setLs[:len(opts.OnlyIn)], setLs[len(opts.OnlyIn):])
	}
	fused, err := view.rank(ctx, &opts)
	if err != nil {
		return nil, err
	}
	if len(fused) > opts.K {
		fused = fused[:opts.K]
	}
	hits, err := view.hits(fused, &opts)
	if err != nil {
		return nil, err
	}
	revTree := make([]int, len(all))
	for i, c := range all {
		revTree[i] = treeOf[c.Tree]
	}
	view.attachRefs(hits, fused, trees, all, revTree, &opts)
	res.Hits = hits
	return res, nil
}

// distinctContent leaves one visible row per chunk content among the
// versions of each file. Releases of a project hold the same function in
// many versions of its file (other functions of the file changed); ranked
// as they are, the copies would fill each arm's candidates with one chunk
// many times over and skew BM25's document frequencies. Copies across
// files are few, and fusion collapses them into one hit. A file with one
// version in every revision costs nothing here; the others go through a
// small table that stays in cache. Rows without text of their own stay.
func (v *view) distinctContent() {
	type blobRef struct{ seg, first int }
	byPath := map[string][]blobRef{}
	for s := range v.blobs {
		for first, b := range v.blobs[s] {
			byPath[b.paths[0]] = append(byPath[b.paths[0]], blobRef{s, first})
		}
	}
	var set hashSet16
	for _, blobs := range byPath {
		if len(blobs) < 2 {
			continue
		}
		set.reset(len(blobs) * 64)
		for _, b := range blobs {
			seg, allow := v.snap.Segments[b.seg], v.allow[b.seg]
			for r := b.first; r < b.first+v.blobs[b.seg][b.first].n; r++ {
				if !allow.Test(uint(r)) {
					continue
				}
				if h, indexed := seg.RowHash(r); indexed && h != ([16]byte{}) && !set.add(h) {
					allow.Clear(uint(r))
				}
			}
		}
	}
}

// hashSet16 is a set of content hashes with open addressing: the hashes
// are uniformly random already, so their first bytes index the table.
type hashSet16 struct {
	keys [][2]uint64
	n    int
}

// reset empties the set, sized for about n keys (it grows as needed).
func (s *hashSet16) reset(n int) {
	size := 64
	for size < 2*n {
		size *= 2
	}
	if cap(s.keys) >= size {
		s.keys = s.keys[:size]
		clear(s.keys)
	} else {
		s.keys = make([][2]uint64, size)
	}
	s.n = 0
}

// add adds a non-zero hash and reports whether it was new.
func (s *hashSet16) add(h [16]byte) bool {
	if 2*(s.n+1) > len(s.keys) {
		old := s.keys
		s.keys, s.n = make([][2]uint64, 2*len(old)), 0
		for _, k := range old {
			if k != ([2]uint64{}) {
				s.insert(k)
			}
		}
	}
	return s.insert([2]uint64{binary.LittleEndian.Uint64(h[:8]), binary.LittleEndian.Uint64(h[8:])})
}

func (s *hashSet16) insert(k [2]uint64) bool {
	mask := uint64(len(s.keys) - 1)
	for i := k[0] & mask; ; i = (i + 1) & mask {
		switch s.keys[i] {
		case k:
			return false
		case [2]uint64{}:
			s.keys[i] = k
			s.n++
			return true
		}
	}
}

// resolveRevisions resolves each revision and names its commit as the
// selection does. A ref that a glob or group found but that names no
// commit (a tag of a tree or blob) is left out; a revision asked for by
// name must resolve.
func resolveRevisions(repo *gitindex.Repo, revs []gitindex.Revision) ([]gitindex.Commit, error) {
	var out []gitindex.Commit
	type key struct {
		name string
		hash plumbing.Hash
	}
	seen := map[key]bool{} // main and refs/heads/main, both asked for
	for _, rv := range revs {
		c, err := repo.Resolve(rv.Rev)
		if err != nil {
			if rv.Rev != rv.Name && strings.HasPrefix(rv.Rev, "refs/") && errors.Is(err, gitindex.ErrUnknownRevision) {
				continue
			}
			return nil, err
		}
		c.Rev = rv.Name
		if !seen[key{c.Rev, c.Hash}] {
			seen[key{c.Rev, c.Hash}] = true
			out = append(out, c)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%w: the selected refs name no commits", gitindex.ErrUnknownRevision)
	}
	return out, nil
}

// place is where a hit's content sits in one tree.
type place struct {
	path       string
	blob       plumbing.Hash
	start, end int
}

// attachRefs sets each hit's Refs: every revision whose tree holds the
// hit's content (its chunk text, by content hash; a row without text of
// its own by its blob), at the path and lines it has there, in the order
// the revisions were asked. Only the top hits are looked up: one pass over
// the union's rows finds the blobs holding their hashes, one pass over
// each distinct tree finds the paths of those blobs.
func (v *view) attachRefs(hits []Hit, rows []fused, trees []*gitindex.Listing, revs []gitindex.Commit, revTree []int, opts *Options) {
	type match struct {
		hit        int
		start, end int
	}
	byHash := map[[16]byte][]int{}
	byBlob := map[plumbing.Hash][]match{}
	for i, f := range rows {
		row := v.snap.Segments[f.seg].Row(f.row)
		if row.Indexed && row.Hash != ([16]byte{}) {
			byHash[row.Hash] = append(byHash[row.Hash], i)
		} else {
			b := plumbing.NewHash(hits[i].Blob)
			byBlob[b] = append(byBlob[b], match{i, row.StartLine, row.EndLine})
		}
	}
	if len(byHash) > 0 {
		prefixes := map[uint64]bool{}
		for h := range byHash {
			prefixes[binary.LittleEndian.Uint64(h[:8])] = true
		}
		for s, seg := range v.snap.Segments {
			for first, b := range v.blobs[s] {
				sha := b.sha
				for r := first; r < first+b.n; r++ {
					h, indexed := seg.RowHash(r)
					// Most rows match none of the few targets: compare
					// their first bytes before looking the hash up.
					if !indexed || !prefixes[binary.LittleEndian.Uint64(h[:8])] {
						continue
					}
					if is, ok := byHash[h]; ok {
						row := seg.Row(r)
						for _, i := range is {
							byBlob[sha] = append(byBlob[sha], match{i, row.StartLine, row.EndLine})
						}
					}
				}
			}
		}
	}
	// found[t][i]: where tree t holds hit i; the hit's own path is
	// preferred when the content sits at several.
	found := make([]map[int]place, len(trees))
	extra := make([][]string, len(hits))
	for t, l := range trees {
		found[t] = map[int]place{}
		for _, e := range l.Entries {
			ms, ok := byBlob[e.Blob]
			if !ok || e.Skip != gitindex.SkipNone || (opts.Path != "" && !pathMatches(opts.Path, e.Path)) {
				continue
			}
			for _, m := range ms {
				here := place{e.Path, e.Blob, m.start, m.end}
				if p, had := found[t][m.hit]; had {
					// Several places in one tree: copies of the code. The
					// ref keeps the hit's own path; the others are also_in.
					if p.path != hits[m.hit].Path && here.path == hits[m.hit].Path {
						here, p = p, here
					}
					found[t][m.hit] = p
					extra[m.hit] = append(extra[m.hit], fmt.Sprintf("%s:%d-%d", here.path, here.start, here.end))
					continue
				}
				found[t][m.hit] = here
			}
		}
	}
	for i := range hits {
		h := &hits[i]
		h.Refs = h.Refs[:0]
		own := -1
		for j, c := range revs {
			p, ok := found[revTree[j]][i]
			if !ok {
				continue
			}
			if own < 0 && p.blob.String() == h.Blob && p.path == h.Path {
				own = len(h.Refs)
			}
			h.Refs = append(h.Refs, RefHit{Name: c.Rev, Commit: c.Hash.String(), Path: p.path, StartLine: p.start, EndLine: p.end})
		}
		if own < 0 && len(h.Refs) > 0 {
			own = 0
		}
		if own >= 0 {
			h.Ref, h.Commit = h.Refs[own].Name, h.Refs[own].Commit
		}
		h.AlsoIn = elsewhere(h, extra[i])
	}
}

// elsewhere lists the places, among the hit's also_in and the copies found
// in its revisions, at paths that neither the hit nor its refs show.
func elsewhere(h *Hit, copies []string) []string {
	known := map[string]bool{h.Path: true}
	for _, r := range h.Refs {
		known[r.Path] = true
	}
	var out []string
	for _, a := range append(h.AlsoIn, copies...) {
		p := a
		if i := strings.LastIndexByte(a, ':'); i > 0 && strings.Contains(a[i:], "-") {
			p = a[:i]
		}
		if !known[p] {
			known[p] = true
			out = append(out, a)
		}
	}
	return out
}

// singleRefs gives the hits of a one-revision search their one ref.
func singleRefs(hits []Hit) {
	for i := range hits {
		h := &hits[i]
		h.Refs = []RefHit{{Name: h.Ref, Commit: h.Commit, Path: h.Path, StartLine: h.StartLine, EndLine: h.EndLine}}
	}
}
