package similar

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/bcindex/bcindex/chunk/vocab"
	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/query"
	"github.com/bcindex/bcindex/search"
	"github.com/bcindex/bcindex/segment"
	"github.com/bcindex/bcindex/store"
)

// maxChangedQueries caps the changed chunks used as queries, so that a huge
// commit stays an interactive query.
const maxChangedQueries = 64

// Changed is a chunk a commit or range added or changed.
type Changed struct {
	Path      string `json:"path"`
	Name      string `json:"name"`
	Kind      string `json:"kind"`
	StartLine int    `json:"start_line"`
	EndLine   int    `json:"end_line"`
}

// Hit is a chunk resembling a change, and the changed chunk it
// resembles most.
type Hit struct {
	search.Hit
	Like Changed `json:"like"`
}

// Result is what Similar found.
type Result struct {
	Hits      []Hit
	Changed   []Changed
	Base, End gitindex.Commit // Base is zero for a root commit
	Target    gitindex.Commit
	Pending   int
}

// Similar takes the chunks that spec (a commit, against its first parent, or
// a range A..B) added or changed, and uses each as a query, by its stored
// vector and by its text, against opts.Rev (default the range's end). The
// changed chunks themselves are left out, so what remains is code like the
// change that the change did not touch: siblings that may need the same fix.
//
// v is the view of the revisions Plan named, opened by the front
// end.
func Similar(ctx context.Context, v *store.View, spec string, opts search.Options) (*Result, error) {
	return search.OnceMore(v, func() (*Result, error) { return similarOnce(ctx, v, spec, opts) })
}

// Plan resolves the revisions Similar reads for spec: the target
// (opts.Rev, default the change's end), the change's end and its base.
func Plan(repo *gitindex.Repo, spec string, opts search.Options) (store.Want, error) {
	res, err := resolveSimilar(repo, spec, opts)
	if err != nil {
		return store.Want{}, err
	}
	return store.Want{Commits: similarCommits(res)}, nil
}

func resolveSimilar(repo *gitindex.Repo, spec string, opts search.Options) (*Result, error) {
	if err := search.CheckOptions(&opts); err != nil {
		return nil, err
	}
	res := &Result{}
	var err error
	if res.Base, res.End, err = resolveChange(repo, spec); err != nil {
		return nil, err
	}
	res.Target = res.End
	if opts.Rev != "" {
		if res.Target, err = repo.Resolve(opts.Rev); err != nil {
			return nil, err
		}
	}
	return res, nil
}

func similarCommits(res *Result) []gitindex.Commit {
	commits := []gitindex.Commit{res.Target, res.End}
	if !res.Base.Hash.IsZero() {
		commits = append(commits, res.Base)
	}
	return commits
}

func similarOnce(ctx context.Context, rd *store.View, spec string, opts search.Options) (*Result, error) {
	repo := rd.Repo
	res, err := resolveSimilar(repo, spec, opts)
	if err != nil {
		return nil, err
	}
	if err := search.CheckOptions(&opts); err != nil {
		return nil, err
	}
	snap, listings := rd.Snap, rd.Listings
	res.Pending = rd.Pending
	base := &gitindex.Listing{}
	if len(listings) > 2 {
		base = listings[2]
	}
	queries := changedChunks(snap, base, listings[1])
	changed := map[[16]byte]struct{}{}
	for _, q := range queries {
		changed[q.hash] = struct{}{}
		res.Changed = append(res.Changed, q.Changed)
	}
	v := search.RankingOf(rd, res.Target, &opts)
	v.Restrict(func(r segment.Row) bool {
		_, touched := changed[r.Hash]
		return !touched
	})
	// The definitions enclosing a changed chunk (its class, its file) are
	// part of the change too, not siblings of it.
	for _, q := range queries {
		seg := snap.Segments[q.seg]
		for p := seg.Row(q.row).Parent; p >= 0; p = seg.Row(p).Parent {
			v.Hide(q.seg, p)
		}
	}
	best := map[[2]int]search.Ranked{}
	like := map[[2]int]int{}
	for qi, q := range queries {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		content, err := repo.ReadBlob(q.blob)
		if err != nil {
			return nil, err
		}
		var vec []float32
		if seg := snap.Segments[q.seg]; seg.Vec != nil && opts.Embedder != nil {
			qv, scale, err := seg.Vec.RowErr(q.row)
			if err != nil {
				return nil, err
			}
			if qv != nil {
				vec = make([]float32, len(qv))
				for i, x := range qv {
					vec[i] = float32(x) * scale
				}
			}
		}
		// The changed chunk's name stands for the query fusion weighs
		// paths and test files by; a chunk with none asks for nothing.
		name, _ := query.Parse(q.Name)
		found, err := v.Like(&name, changedText(snap.Segments[q.seg], q, content), vec)
		if err != nil {
			return nil, err
		}
		for _, f := range found {
			k := [2]int{f.Seg, f.Row}
			if f.Score > best[k].Score {
				best[k], like[k] = f, qi
			}
		}
	}
	ranked := make([]search.Ranked, 0, len(best))
	for _, f := range best {
		ranked = append(ranked, f)
	}
	sort.Slice(ranked, func(i, j int) bool {
		if ranked[i].Score != ranked[j].Score {
			return ranked[i].Score > ranked[j].Score
		}
		if ranked[i].Seg != ranked[j].Seg {
			return ranked[i].Seg < ranked[j].Seg
		}
		return ranked[i].Row < ranked[j].Row
	})
	if len(ranked) > opts.K {
		ranked = ranked[:opts.K]
	}
	// Code is compared with code; the hits only show their summaries.
	v.LoadSummaries(&opts)
	hits, err := v.Hits(ranked, res.Target.Rev, &opts)
	if err != nil {
		return nil, err
	}
	for i, h := range hits {
		res.Hits = append(res.Hits, Hit{Hit: h, Like: queries[like[[2]int{ranked[i].Seg, ranked[i].Row}]].Changed})
	}
	return res, nil
}

// resolveChange reads a range "A..B" (an empty side means HEAD, as in git)
// or a single commit, which is compared with its first parent.
func resolveChange(repo *gitindex.Repo, spec string) (base, end gitindex.Commit, err error) {
	if a, b, ok := strings.Cut(spec, ".."); ok {
		if strings.HasPrefix(b, ".") {
			return base, end, fmt.Errorf("%w %q: symmetric differences (A...B) are not supported; use A..B", gitindex.ErrUnknownRevision, spec)
		}
		if a == "" {
			a = "HEAD"
		}
		if b == "" {
			b = "HEAD"
		}
		if base, err = repo.Resolve(a); err != nil {
			return base, end, err
		}
		end, err = repo.Resolve(b)
		return base, end, err
	}
	if end, err = repo.Resolve(spec); err != nil {
		return base, end, err
	}
	c, err := repo.CommitObject(end.Hash)
	if err != nil {
		return base, end, err
	}
	if len(c.ParentHashes) > 0 {
		base, err = repo.Resolve(c.ParentHashes[0].String())
	}
	return base, end, err
}

// changedQuery is a changed chunk and where its row is.
type changedQuery struct {
	Changed
	blob               [20]byte
	seg, row           int
	hash               [16]byte
	startByte, endByte int
}

// changedText is what a changed chunk is searched by in the text arm: the
// text the index holds for it (a class reads as its header and its members'
// signatures, as it was indexed), or its source when that is empty (windows
// carry a long chunk's text) or its rows cannot be read.
func changedText(seg *segment.Segment, q changedQuery, content []byte) string {
	source := string(content[min(q.startByte, len(content)):min(q.endByte, len(content))])
	first, n, ok := seg.FindBlob(q.blob)
	if !ok || q.row < first || q.row >= first+n {
		return source
	}
	rows, err := seg.Details(first, n)
	if err != nil {
		return source
	}
	if text := vocab.IndexText(content, segment.BlobSpans{First: first, Rows: rows}, q.row-first); text != "" {
		return text
	}
	return source
}

// changedChunks returns the chunks of end whose content hash is not in the
// base version of their file. A file-level chunk counts only when nothing
// else in its file changed: it changes with any edit between definitions.
func changedChunks(snap *store.Snapshot, base, end *gitindex.Listing) []changedQuery {
	var out []changedQuery
	for _, e := range gitindex.ChangedEntries(base, end) {
		old := map[[16]byte]struct{}{}
		es := base.Entries
		if j := sort.Search(len(es), func(j int) bool { return es[j].Path >= e.Path }); j < len(es) && es[j].Path == e.Path {
			search.AddBlobHashes(snap, es[j].Blob, old)
		}
		loc, ok := snap.FindBlob(e.Blob)
		if !ok {
			continue
		}
		seg := snap.Segments[loc.Seg]
		var file []changedQuery
		var defs []changedQuery
		for r := loc.First; r < loc.First+loc.N; r++ {
			row := seg.Row(r)
			if _, same := old[row.Hash]; same || row.Hash == ([16]byte{}) {
				continue
			}
			q := changedQuery{Changed: Changed{Path: e.Path, Name: row.Name, Kind: row.Kind, StartLine: row.StartLine, EndLine: row.EndLine},
				blob: e.Blob, seg: loc.Seg, row: r, hash: row.Hash, startByte: row.StartByte, endByte: row.EndByte}
			if row.Kind == vocab.KindFile {
				file = append(file, q)
			} else {
				defs = append(defs, q)
			}
		}
		if len(defs) == 0 {
			defs = file
		}
		out = append(out, defs...)
		if len(out) >= maxChangedQueries {
			return out[:maxChangedQueries]
		}
	}
	return out
}
