package search

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/query"
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

// planMany resolves several revisions for one query: the view is the
// union of their trees, each distinct commit listed once, then the
// commits of the sets.
func planMany(repo *gitindex.Repo, opts *Options, revs []gitindex.Revision) (*Plan, error) {
	p := &Plan{many: true}
	if opts.Worktree {
		return nil, fmt.Errorf("--worktree searches HEAD with uncommitted changes; it does not combine with several revisions")
	}
	if opts.Files {
		return nil, fmt.Errorf("--files ranks the files of one revision; it does not combine with several revisions")
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
	// The listings after the first are read through their deltas: what
	// the query costs follows what changed between the revisions.
	p.Want = store.Want{Commits: append(uniq, sets...), ByDelta: true}
	p.all, p.uniq = all, len(uniq)
	return p, nil
}

// searchMany runs one query over several revisions at once: the view is
// the union of their trees, so each distinct blob is ranked once however
// many revisions share it, and the hits then learn which revisions hold
// their content.
func searchMany(ctx context.Context, rd *store.View, q *query.Query, opts *Options, p *Plan) (*Result, error) {
	repo, all := rd.Repo, p.all
	uniq := p.Want.Commits[:p.uniq]
	res := &Result{Commit: all[0], Revisions: all, Pending: rd.Pending, Damaged: rd.Damaged, NoVectors: rd.NoVectors}
	listings := rd.Listings
	treeOf := map[plumbing.Hash]int{}
	var trees []*gitindex.Listing
	var fresh [][]gitindex.Entry
	var located [][]store.BlobLoc
	// A listing left out as the twin of an earlier one changes nothing:
	// the next one's fresh entries, against it, are against its twin's.
	for i, l := range listings[:len(uniq)] {
		if _, ok := treeOf[l.Tree]; !ok {
			treeOf[l.Tree] = len(trees)
			trees = append(trees, l)
			fresh = append(fresh, rd.Fresh[i])
			located = append(located, rd.Located[i])
		}
	}
	view := newView(repo, all[0], rd.Snap, trees, fresh, located, opts)
	view.treeRank = newestFirst(all, treeOf, len(trees))
	view.distinctContent()
	if len(listings) > len(uniq) {
		setLs := listings[len(uniq):]
		view.restrictToSets(setLs[:p.onlyIn()], setLs[p.onlyIn():])
	}
	view.loadSummaries(opts, res)
	fused, err := view.rank(ctx, q, opts)
	if err != nil {
		return nil, err
	}
	if len(fused) > opts.K {
		fused = fused[:opts.K]
	}
	hits, err := view.hits(fused, opts)
	if err != nil {
		return nil, err
	}
	chain := refChain{fresh: rd.Fresh[:len(uniq)], gone: rd.Gone[:len(uniq)], tree: make([]int, len(uniq))}
	for i, l := range listings[:len(uniq)] {
		chain.tree[i] = treeOf[l.Tree]
	}
	revTree := make([]int, len(all))
	for i, c := range all {
		revTree[i] = treeOf[c.Tree]
	}
	view.attachRefs(hits, fused, chain, len(trees), all, revTree, opts)
	res.Hits = hits
	return res, nil
}

// newestFirst ranks the distinct trees by the newest committer date of the
// revisions holding them (ties: the order asked). The copy of a chunk that
// distinctContent keeps is the newest one: where the code lives now, and
// usually the version of its file that a pack keeps whole (git stores
// older versions as deltas against newer ones), so the cheapest to read.
func newestFirst(revs []gitindex.Commit, treeOf map[plumbing.Hash]int, n int) []int {
	when := make([]time.Time, n)
	for _, c := range revs {
		if t := treeOf[c.Tree]; c.When.After(when[t]) {
			when[t] = c.When
		}
	}
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(i, j int) bool { return when[order[i]].After(when[order[j]]) })
	rank := make([]int, n)
	for r, t := range order {
		rank[t] = r
	}
	return rank
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
		c, err := repo.ResolveRevision(rv)
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

// refChain is the listings of a search over several revisions, in the
// order the indexing side returned them: each listing's fresh entries and
// the entries it lost against the one before (store.View), and its
// distinct tree.
type refChain struct {
	fresh, gone [][]gitindex.Entry
	tree        []int
}

// attachRefs sets each hit's Refs: every revision whose tree holds the
// hit's content (its chunk text, by content hash; a row without text of
// its own by its blob), at the path and lines it has there, in the order
// the revisions were asked. Only the top hits are looked up: one pass over
// the union's rows finds the blobs holding their hashes, and one pass
// along the chain of listings finds where each tree holds those blobs.
func (v *view) attachRefs(hits []Hit, rows []fused, chain refChain, nTrees int, revs []gitindex.Commit, revTree []int, opts *Options) {
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
	v.rowsWithContent(byHash, func(s, r int, is []int) {
		row := v.snap.Segments[s].Row(r)
		b, _ := v.blobAt(s, r)
		sha := b.sha
		for _, i := range is {
			byBlob[sha] = append(byBlob[sha], match{i, row.StartLine, row.EndLine})
		}
	})
	// found[t][i]: where tree t holds hit i; the hit's own path is
	// preferred when the content sits at several. A listing's entries
	// that hold the hits' blobs are the previous listing's, less those it
	// lost, plus its fresh ones: the walk along the chain never reads a
	// whole listing after the first.
	holds := func(es []gitindex.Entry) []gitindex.Entry {
		var out []gitindex.Entry
		for _, e := range es {
			if _, ok := byBlob[e.Blob]; ok {
				out = append(out, e)
			}
		}
		return out
	}
	found := make([]map[int]place, nTrees)
	extra := make([][]string, len(hits))
	paths := opts.filter.paths
	var cur []gitindex.Entry
	for i, fresh := range chain.fresh {
		if i > 0 {
			lost := holds(chain.gone[i])
			cur = slices.DeleteFunc(cur, func(e gitindex.Entry) bool { return slices.Contains(lost, e) })
		}
		cur = append(cur, holds(fresh)...)
		slices.SortFunc(cur, func(a, b gitindex.Entry) int { return strings.Compare(a.Path, b.Path) })
		t := chain.tree[i]
		if found[t] != nil {
			continue // the twin of an earlier listing
		}
		found[t] = map[int]place{}
		for _, e := range cur {
			if e.Skip != gitindex.SkipNone || !paths.Match(e.Path) {
				continue
			}
			for _, m := range byBlob[e.Blob] {
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
