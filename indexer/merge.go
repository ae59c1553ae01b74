package indexer

import (
	"fmt"
	"os"
	"slices"
	"sort"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/bcindex/bcindex/segment"
	"github.com/bcindex/bcindex/store"
	"github.com/bcindex/bcindex/store/storewrite"
)

// maxSegments is how many segments below fullRows may be live before the
// indexer merges the smaller ones. Every indexing run (every hook run) adds
// a segment, and a query looks each blob up in every segment.
const maxSegments = 8

// maxMergeRows bounds the rows one merge of small segments writes, and so
// its memory: a merge holds the rows, postings, trigrams and vectors of
// what it merges (merging 515k rows of git's history peaked at 540 MB of
// heap under the 256 MiB soft limit). Without the bound the largest merge
// grows with the index: merging all but the four largest segments took a
// fifth of git's whole first-parent history at once. A segment of
// fullRows or more is left as it is and not counted against maxSegments,
// so a long history ends as segments of fullRows to maxMergeRows rows
// each, plus at most maxSegments smaller ones.
// Options.MergeRows replaces maxMergeRows (and fullRows, its half).
const (
	maxMergeRows = 1 << 19
	fullRows     = maxMergeRows / 2
)

// mergeRows is the most rows one merge writes: Options.MergeRows, or
// maxMergeRows.
func (ix *Indexer) mergeRows() int {
	if ix.opts.MergeRows > 0 {
		return ix.opts.MergeRows
	}
	return maxMergeRows
}

// mergeSmallSegments merges small segments when more than maxSegments are
// below half of mergeRows (mergeChoice), so that their count stays bounded
// and the work and memory of a merge stay those of at most mergeRows rows.
func (ix *Indexer) mergeSmallSegments(st *storewrite.Store, m *store.Manifest) error {
	if len(m.Segments) <= maxSegments {
		return nil
	}
	rows := make([]int, len(m.Segments))
	for i, id := range m.Segments {
		ct, err := segment.OpenTable(segment.File(ix.repo.IndexDir, id, segment.ChunksFile))
		if err != nil {
			return err
		}
		rows[i] = ct.Nrows
		ct.Close()
	}
	ids := mergeChoice(m.Segments, rows, ix.mergeRows())
	if len(ids) == 0 {
		return nil
	}
	return ix.rewriteSegments(st, m, ids, []Part{{Inputs: ids}}, nil)
}

// mergeChoice picks the segments to merge, given each live segment's
// rows and the most rows a merge writes (limit; a segment of limit/2 rows
// or more is full): none while at most maxSegments are below full; else,
// of those, the smallest first (in manifest order among equals), all but
// the maxSegments/2 largest, as long as their rows together stay within
// limit. Two segments below full always fit.
func mergeChoice(ids []string, rows []int, limit int) []string {
	var small []int
	for i, n := range rows {
		if n < limit/2 {
			small = append(small, i)
		}
	}
	if len(small) <= maxSegments {
		return nil
	}
	sort.SliceStable(small, func(a, b int) bool { return rows[small[a]] < rows[small[b]] })
	var out []string
	sum := 0
	for _, i := range small[:len(small)-maxSegments/2] {
		if sum+rows[i] > limit {
			break
		}
		sum += rows[i]
		out = append(out, ids[i])
	}
	return out
}

// Part is one segment a rewrite writes: the blobs of each of Inputs that
// Keep accepts (nil: all), in that order.
type Part struct {
	Inputs []string
	Keep   func(input string, blob plumbing.Hash) bool
}

// rewriteSegments writes each part as a new segment, one after the other
// (a part's memory is released before the next is written), then publishes
// one manifest without the segments drop and with the new ones, and removes
// drop's directories and vectors. A part with no blob writes nothing.
// Postings and vectors are copied, never recomputed; a part keeps a
// model's vector file when each of its inputs has it (backfill recreates
// the others) and keepModel accepts its name (nil accepts all).
func (ix *Indexer) rewriteSegments(st *storewrite.Store, m *store.Manifest, drop []string, parts []Part, keepModel func(string) bool) error {
	next := &store.Manifest{Schema: store.SchemaVersion, Next: m.Next}
	dropped := map[string]bool{}
	for _, id := range drop {
		dropped[id] = true
	}
	for _, id := range m.Segments {
		if !dropped[id] {
			next.Segments = append(next.Segments, id)
		}
	}
	owners := slices.Clone(next.Segments) // the segments that stay, and those written
	var written []string
	// unwrite removes what this rewrite wrote when it publishes nothing (a
	// killed rewrite leaves it to the next run's removal of orphans).
	unwrite := func(ids ...string) {
		for _, id := range ids {
			os.RemoveAll(segment.Dir(ix.repo.IndexDir, id))
		}
		st.DeleteSegmentVectors(ids, m.Segments)
	}
	for _, p := range parts {
		id := segment.ID(next.Next)
		ok, err := ix.writeMerged(st, id, p, keepModel, owners)
		if err != nil {
			unwrite(append(written, id)...)
			return err
		}
		if ok {
			written = append(written, id)
			next.Segments = append(next.Segments, id)
			next.Next++
			// The next parts share what this one stores: it is
			// published with them, or removed with them.
			owners = append(owners, id)
		}
	}
	if len(written) == 0 {
		next.Next++
	}
	if err := storewrite.WriteManifest(ix.repo.IndexDir, next); err != nil {
		unwrite(written...)
		return err
	}
	*m = *next
	// Readers that opened the old segments keep their mappings (Badger
	// leaves the deleted vectors in its log until gc); readers that read
	// the old manifest but not yet the files retry with the new one.
	for _, id := range drop {
		os.RemoveAll(segment.Dir(ix.repo.IndexDir, id))
	}
	return st.DeleteSegmentVectors(drop, m.Segments)
}

// writeMerged writes part p as segment id, with its vectors in Badger but
// those the segments owners store (shareVectors); it reports false when
// no blob of p is kept (nothing is written then).
func (ix *Indexer) writeMerged(st *storewrite.Store, id string, p Part, keepModel func(string) bool, owners []string) (bool, error) {
	var (
		seg    = segment.NewWriter(0)
		vecs   = map[string]*segment.VectorRows{}
		models []string
	)
	for k, in := range p.Inputs {
		names, err := segment.VectorFiles(ix.repo.IndexDir, in)
		if err != nil {
			return false, err
		}
		if k == 0 {
			models = names
		} else {
			models = segment.Intersect(models, names)
		}
	}
	if keepModel != nil {
		var kept []string
		for _, name := range models {
			if keepModel(name) {
				kept = append(kept, name)
			}
		}
		models = kept
	}
	for _, in := range p.Inputs {
		var keep func(plumbing.Hash) bool
		if p.Keep != nil {
			keep = func(h plumbing.Hash) bool { return p.Keep(in, h) }
		}
		if err := seg.Append(ix.repo.IndexDir, in, models, keep, vecs); err != nil {
			return false, fmt.Errorf("merge segment %s: %w", in, err)
		}
	}
	if seg.Blobs() == 0 {
		return false, nil
	}
	var hashes [][16]byte
	for name, v := range vecs {
		sv, h, err := seg.StoredVectors(v)
		if err != nil {
			return false, fmt.Errorf("merge segments: %w", err)
		}
		vecs[name], hashes = sv, h
	}
	shared, err := ix.shareVectors(vecs, hashes, owners)
	if err != nil {
		return false, fmt.Errorf("merge segments: %w", err)
	}
	enc, err := storeVectors(st, id, vecs)
	if err != nil {
		return false, err
	}
	attachShared(enc, shared)
	dir := segment.Dir(ix.repo.IndexDir, id)
	err = segment.WriteLocators(dir, enc)
	if err == nil {
		err = seg.WriteFiles(dir)
	}
	if err != nil {
		os.RemoveAll(dir)
		return false, fmt.Errorf("write merged segment %s: %w", id, err)
	}
	return true, nil
}
