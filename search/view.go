package search

import (
	"encoding/binary"
	"math"
	"slices"
	"sort"
	"sync"

	"github.com/bits-and-blooms/bitset"
	"github.com/go-git/go-git/v5/plumbing"

	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/store"
)

// view is one revision's slice of the snapshot (or the union of several
// revisions'): which rows are visible, and at which paths. It is built
// once per query, from the listings and blob locations the indexing side
// returned.
type view struct {
	repo   *gitindex.Repo
	commit gitindex.Commit
	rev    string
	snap   *store.Snapshot
	fusion fusionConfig     // the ranking constants: defaultFusion, or Options.ranking
	allow  []*bitset.BitSet // per segment
	// visible are the visible blobs, in the order added; slot[s][b] is
	// 1 + the index in visible of blob b of segment s's blob table, 0
	// for a blob the view does not show. A query builds these for every
	// file of the revision: slices indexed by the blob, no hash maps.
	visible []visibleBlob
	slot    [][]int32
	// treeRank, for a view of several listings, orders them for
	// distinctContent (nil: the order given).
	treeRank []int
	// added lists the blobs in the order they were made visible: by
	// listing, then by path.
	added []blobRef
	// namedExactly is set by rank when a chunk is named by the query
	// (the symbol arm matched it exactly, case aside).
	namedExactly bool
	// fileScore is each file's BM25 over the most a file could score
	// (filetext.go), in file order (segment, first row); nil: not
	// computed.
	fileScore []fileScore
	// winLines are the lines of the windows the text arm answered, by
	// the row answering each (windows.go), when hits show them.
	winLines map[[2]int][2]int
	// fileBest is each file's row of the best BM25 score, by segment and
	// first row (filetext.go); nil: not computed.
	fileBest []fileRow
	// text is what the text arm computed for the query (nil: it did not
	// run): the file stage and the second stage read it.
	text *textStats
	// pathText is the paths of added, lowercased and joined, and
	// pathEnds where each ends (paths.go); nil until the text arm reads
	// them.
	pathText string
	pathEnds []int
	// memo is the store's view the query was opened on, which keeps
	// what is derived from it once (nil: none); rb is the snapshot's
	// rowBlobs, made on first use (rowBlobs).
	memo   *store.View
	rbOnce sync.Once
	rb     *rowBlobs
	// ni is the snapshot's name index when memo keeps one (nameIndexOf).
	niOnce sync.Once
	ni     *nameIndex
	// px is the path index of added when memo keeps one (pathIndexOf).
	pxOnce sync.Once
	px     *pathIndex
	// pathsKey names the blobs added (the listings and the path filters)
	// for the path fields' text kept in memo.
	pathsKey pathsKey
	// lexMaps map each segment's postings, stored for first copies, to
	// the visible rows (lexrows.go); nil until the text arm reads them.
	lexMaps []*copyMap
	// forms are the postings of each form the text arm read, by
	// segment, for the file-level BM25 to read again (nil until the text
	// arm runs; it starts them anew for the rows visible then).
	forms map[string][][]rowFreq
	// base is the view whose blobs and rows this one copied (viewOf),
	// which keeps what is derived from its rows (visibleLens); nil: none.
	base     *view
	lensOnce sync.Once
	lens     visLens
	// sums are the generated summaries of the visible rows' texts
	// (summaries.go); nil: none, or Options.NoSummaries.
	sums *summaries
}

// visibleBlob is a blob the view shows, at the paths it has there.
type visibleBlob struct {
	sha   plumbing.Hash
	n     int // rows
	paths []string
	tree  int // the first listing that holds it
}

// newView makes the rows of the listings' blobs visible (one listing for a
// revision; several for the union of a history or of many refs), filtered
// by opts (checked, its filters compiled). fresh and located, when given, are what the indexing side
// returned (store.View): each listing's entries that the previous one
// lacks, and where their rows are; otherwise the listings are compared
// here and each blob is looked up.
func newView(repo *gitindex.Repo, commit gitindex.Commit, snap *store.Snapshot, ls []*gitindex.Listing, fresh [][]gitindex.Entry, located [][]store.BlobLoc, opts *Options) *view {
	// The entries to add bound the blobs the view will hold.
	total := 0
	for _, locs := range located {
		for _, loc := range locs {
			if loc.Seg >= 0 {
				total++
			}
		}
	}
	v := emptyView(repo, commit, snap, total, opts)
	for i, l := range ls {
		var locs []store.BlobLoc
		es := l.Entries
		switch {
		case i < len(located):
			es, locs = fresh[i], located[i]
		case i > 0:
			es = gitindex.FreshEntries(ls[i-1], l)
		}
		v.add(es, i, locs, opts)
	}
	return v
}

// emptyView is a view of no blob yet, with room for blobs of them, ready
// for add.
func emptyView(repo *gitindex.Repo, commit gitindex.Commit, snap *store.Snapshot, blobs int, opts *Options) *view {
	v := newViewOf(repo, commit, snap, opts)
	ns := len(snap.Segments)
	v.allow = make([]*bitset.BitSet, ns)
	v.slot = make([][]int32, ns)
	for i, seg := range snap.Segments {
		v.allow[i] = bitset.New(uint(seg.Rows()))
		v.slot[i] = make([]int32, seg.Blobs())
	}
	v.added = make([]blobRef, 0, blobs)
	v.visible = make([]visibleBlob, 0, blobs)
	return v
}

// newViewOf is a view of nothing yet, ranking as opts asks.
func newViewOf(repo *gitindex.Repo, commit gitindex.Commit, snap *store.Snapshot, opts *Options) *view {
	v := &view{repo: repo, commit: commit, rev: commit.Rev, snap: snap, fusion: defaultFusion()}
	if opts.ranking != nil {
		v.fusion = *opts.ranking
	}
	if opts.Raw {
		// One arm's own scores: plain BM25 over the chunks' words.
		v.fusion.stemWeight, v.fusion.pathWeight = 0, 0
	}
	return v
}

// add makes the blobs of a listing's entries es visible (the others are
// in the view already), at locs[k] for es[k] (looked up when locs is nil).
// An entry that an earlier listing than the previous one held (a file
// changed back) finds its blob in the view and only adds its path.
func (v *view) add(es []gitindex.Entry, tree int, locs []store.BlobLoc, opts *Options) {
	snap := v.snap
	f := opts.compiled()
	for k := range es {
		e := &es[k]
		if e.Skip != gitindex.SkipNone {
			continue
		}
		if !f.paths.Match(e.Path) {
			continue
		}
		var loc store.BlobLoc
		if locs != nil {
			loc = locs[k]
		} else if found, ok := snap.FindBlob(e.Blob); ok {
			loc = found
		} else {
			loc.Seg = -1
		}
		if loc.Seg < 0 || loc.N == 0 {
			continue
		}
		bi := loc.Blob
		if k := v.slot[loc.Seg][bi]; k > 0 {
			if b := &v.visible[k-1]; !slices.Contains(b.paths, e.Path) {
				b.paths = append(b.paths, e.Path)
			}
			continue
		}
		v.visible = append(v.visible, visibleBlob{sha: e.Blob, n: loc.N, paths: []string{e.Path}, tree: tree})
		v.slot[loc.Seg][bi] = int32(len(v.visible))
		v.added = append(v.added, blobRef{loc.Seg, loc.First, loc.N, tree, e.Path})
		seg, allow := snap.Segments[loc.Seg], v.allow[loc.Seg]
		if f.anyRow() {
			setRange(allow, loc.First, loc.First+loc.N)
			continue
		}
		for r := loc.First; r < loc.First+loc.N; r++ {
			if row := seg.Row(r); f.row(row.Language, row.Kind) {
				allow.Set(uint(r))
			}
		}
	}
}

// setRange sets bits [lo, hi) of b, a word at a time.
func setRange(b *bitset.BitSet, lo, hi int) {
	if hi <= lo {
		return
	}
	b.Set(uint(hi - 1)) // grows b if needed, so the words below exist
	w := b.Words()
	for lo < hi {
		i, bit := lo/64, lo%64
		n := min(64-bit, hi-lo)
		mask := ^uint64(0)
		if n < 64 {
			mask = (1<<uint(n) - 1) << uint(bit)
		}
		w[i] |= mask
		lo += n
	}
}

// blobAt returns the visible blob that row of segment seg belongs to.
func (v *view) blobAt(seg, row int) (visibleBlob, bool) {
	bi := v.rowBlobs().of(seg, row)
	if bi < 0 {
		return visibleBlob{}, false
	}
	if k := v.slot[seg][bi]; k > 0 {
		return v.visible[k-1], true
	}
	return visibleBlob{}, false
}

// cand is a candidate row and its score in one arm.
type cand struct {
	seg, row int
	score    float64
	held     float64 // text arm: the IDF share of the query's terms the row holds
	key      uint64  // the row's rowKey: the order of equal scores
}

// sortCands sorts candidates best first; equal scores by rowKey, so the
// order does not depend on how the index is cut into segments.
func sortCands(c []cand) {
	sort.Slice(c, func(i, j int) bool {
		if c[i].score != c[j].score {
			return c[i].score > c[j].score
		}
		if c[i].key != c[j].key {
			return c[i].key < c[j].key
		}
		if c[i].seg != c[j].seg {
			return c[i].seg < c[j].seg
		}
		return c[i].row < c[j].row
	})
}

// rowKey orders rows of equal score by what they are rather than where
// the index put them: their blob's hash (its first 44 bits), then their
// place in the blob. The same tree gives the same answers whether it was
// indexed in one segment or in many (the indexer checkpoints by count
// and by time). Copies of one text in two files thus rank by their
// blobs' hashes.
func (v *view) rowKey(s, r int) uint64 {
	rb := v.rowBlobs()
	b := rb.of(s, r)
	if b < 0 {
		return math.MaxUint64
	}
	sha := v.snap.Segments[s].BlobSHA(b)
	const offBits = 20
	off := uint64(min(max(r-rb.firstOf(s, r), 0), 1<<offBits-1))
	return binary.BigEndian.Uint64(sha[:8])&^(1<<offBits-1) | off
}

// candOf is the candidate of row r of segment s at score.
func (v *view) candOf(s, r int, score float64) cand {
	return cand{seg: s, row: r, score: score, key: v.rowKey(s, r)}
}

// fusedBefore reports whether a ranks above b: the higher score, equal
// scores by rowKey (then by place, for one blob in two segments).
func (v *view) fusedBefore(a, b fused) bool {
	if a.score != b.score {
		return a.score > b.score
	}
	if a.seg == b.seg && a.row == b.row {
		return false
	}
	if ka, kb := v.rowKey(a.seg, a.row), v.rowKey(b.seg, b.row); ka != kb {
		return ka < kb
	}
	if a.seg != b.seg {
		return a.seg < b.seg
	}
	return a.row < b.row
}
