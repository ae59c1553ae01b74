package indexer

import (
	"fmt"
	"os"
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
const (
	maxMergeRows = 1 << 19
	fullRows     = maxMergeRows / 2
)

// mergeSmallSegments merges small segments when more than maxSegments are
// below fullRows (mergeChoice), so that their count stays bounded and the
// work and memory of a merge stay those of at most maxMergeRows rows.
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
	ids := mergeChoice(m.Segments, rows)
	if len(ids) == 0 {
		return nil
	}
	return ix.mergeSegments(st, m, ids, nil, nil)
}

// mergeChoice picks the segments to merge, given each live segment's
// rows: none while at most maxSegments are below fullRows; else, of those,
// the smallest first (in manifest order among equals), all but the
// maxSegments/2 largest, as long as their rows together stay within
// maxMergeRows. Two segments below fullRows always fit.
func mergeChoice(ids []string, rows []int) []string {
	var small []int
	for i, n := range rows {
		if n < fullRows {
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
		if sum+rows[i] > maxMergeRows {
			break
		}
		sum += rows[i]
		out = append(out, ids[i])
	}
	return out
}

// mergeSegments rewrites the segments ids as one, keeping only the blobs
// for which keep returns true (nil keeps all), then publishes a manifest
// without them and removes their directories. Postings and vectors are
// copied, never recomputed; a model's vector file is kept when every merged
// segment has it (backfill recreates the others) and keepModel accepts its
// file name (nil accepts all). The merged segments' vectors leave Badger.
func (ix *Indexer) mergeSegments(st *storewrite.Store, m *store.Manifest, ids []string, keep func(plumbing.Hash) bool, keepModel func(string) bool) error {
	var (
		seg    = segment.NewWriter(0)
		vecs   = map[string]*segment.VectorRows{}
		models []string
	)
	for k, id := range ids {
		names, err := segment.VectorFiles(ix.repo.IndexDir, id)
		if err != nil {
			return err
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
	for _, id := range ids {
		if err := seg.Append(ix.repo.IndexDir, id, models, keep, vecs); err != nil {
			return fmt.Errorf("merge segment %s: %w", id, err)
		}
	}
	next := &store.Manifest{Schema: store.SchemaVersion, Next: m.Next + 1}
	drop := map[string]bool{}
	for _, id := range ids {
		drop[id] = true
	}
	for _, id := range m.Segments {
		if !drop[id] {
			next.Segments = append(next.Segments, id)
		}
	}
	if seg.Blobs() > 0 {
		id := segment.ID(m.Next)
		for name, v := range vecs {
			sv, err := seg.StoredVectors(v)
			if err != nil {
				return fmt.Errorf("merge segments: %w", err)
			}
			vecs[name] = sv
		}
		enc, err := storeVectors(st, id, vecs)
		if err != nil {
			return err
		}
		dir := segment.Dir(ix.repo.IndexDir, id)
		err = segment.WriteLocators(dir, enc)
		if err == nil {
			err = seg.WriteFiles(dir)
		}
		if err != nil {
			os.RemoveAll(dir)
			return fmt.Errorf("write merged segment %s: %w", id, err)
		}
		next.Segments = append(next.Segments, id)
	}
	if err := storewrite.WriteManifest(ix.repo.IndexDir, next); err != nil {
		return err
	}
	*m = *next
	// Readers that opened the old segments keep their mappings (Badger
	// leaves the deleted vectors in its log until gc); readers that read
	// the old manifest but not yet the files retry with the new one.
	for _, id := range ids {
		os.RemoveAll(segment.Dir(ix.repo.IndexDir, id))
	}
	return st.DeleteSegmentVectors(ids)
}
