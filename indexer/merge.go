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

// maxSegments is how many segments may be live before the indexer merges
// the smaller ones. Every indexing run (every hook run) adds a segment, and
// a query looks each blob up in every segment.
const maxSegments = 8

// mergeSmallSegments merges the smallest segments into one when there are
// more than maxSegments, so that the count stays bounded and the work done
// stays proportional to the small segments (large ones are rarely rewritten).
func (ix *Indexer) mergeSmallSegments(st *storewrite.Store, m *store.Manifest) error {
	if len(m.Segments) <= maxSegments {
		return nil
	}
	type sized struct {
		id   string
		rows int
	}
	var segs []sized
	for _, id := range m.Segments {
		ct, err := segment.OpenTable(segment.File(ix.repo.IndexDir, id, segment.ChunksFile))
		if err != nil {
			return err
		}
		segs = append(segs, sized{id, ct.Nrows})
		ct.Close()
	}
	sort.SliceStable(segs, func(i, j int) bool { return segs[i].rows < segs[j].rows })
	var ids []string
	for _, s := range segs[:len(segs)-maxSegments/2] {
		ids = append(ids, s.id)
	}
	return ix.mergeSegments(st, m, ids, nil, nil)
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
