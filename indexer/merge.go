package indexer

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/bcindex/bcindex/lexical"
	"github.com/bcindex/bcindex/ngram"
	"github.com/bcindex/bcindex/segment"
	"github.com/bcindex/bcindex/store"
	"github.com/bcindex/bcindex/vector"
)

// maxSegments is how many segments may be live before the indexer merges
// the smaller ones. Every indexing run (every hook run) adds a segment, and
// a query looks each blob up in every segment.
const maxSegments = 8

// mergeSmallSegments merges the smallest segments into one when there are
// more than maxSegments, so that the count stays bounded and the work done
// stays proportional to the small segments (large ones are rarely rewritten).
func (ix *Indexer) mergeSmallSegments(st *store.Store, m *store.Manifest) error {
	if len(m.Segments) <= maxSegments {
		return nil
	}
	type sized struct {
		id   string
		rows int
	}
	var segs []sized
	for _, id := range m.Segments {
		ct, err := segment.OpenTable(segment.File(ix.repo.IndexDir, id, "chunks.bin"))
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
func (ix *Indexer) mergeSegments(st *store.Store, m *store.Manifest, ids []string, keep func(plumbing.Hash) bool, keepModel func(string) bool) error {
	var (
		seg    segment.TableWriter
		lw     = lexical.NewWriter()
		gw     = ngram.NewWriter()
		vecs   = map[string]*vecRows{}
		models []string
	)
	for k, id := range ids {
		names, err := vectorFiles(ix.repo.IndexDir, id)
		if err != nil {
			return err
		}
		if k == 0 {
			models = names
		} else {
			models = intersect(models, names)
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
		if err := ix.appendSegment(id, models, keep, &seg, lw, gw, vecs); err != nil {
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
	if len(seg.Blobs) > 0 {
		id := fmt.Sprintf("%08d", m.Next)
		enc, err := storeVectors(st, id, vecs)
		if err != nil {
			return err
		}
		dir := filepath.Join(ix.repo.IndexDir, "segments", id)
		err = writeLocators(dir, enc)
		if err == nil {
			err = writeSegmentFiles(dir, &seg, lw, gw)
		}
		if err != nil {
			os.RemoveAll(dir)
			return fmt.Errorf("write merged segment %s: %w", id, err)
		}
		next.Segments = append(next.Segments, id)
	}
	if err := store.WriteManifest(ix.repo.IndexDir, next); err != nil {
		return err
	}
	*m = *next
	// Readers that opened the old segments keep their mappings (Badger
	// leaves the deleted vectors in its log until gc); readers that read
	// the old manifest but not yet the files retry with the new one.
	for _, id := range ids {
		os.RemoveAll(filepath.Join(ix.repo.IndexDir, "segments", id))
	}
	return st.DeleteSegmentVectors(ids)
}

// appendSegment copies the kept blobs of one segment into the writers.
func (ix *Indexer) appendSegment(id string, models []string, keep func(plumbing.Hash) bool, seg *segment.TableWriter, lw *lexical.Writer, gw *ngram.Writer, vecs map[string]*vecRows) error {
	ct, err := segment.OpenTable(segment.File(ix.repo.IndexDir, id, "chunks.bin"))
	if err != nil {
		return err
	}
	defer ct.Close()
	lex, err := lexical.Open(segment.File(ix.repo.IndexDir, id, "lex.bin"))
	if err != nil {
		return err
	}
	defer lex.Close()
	grams, err := ngram.Open(segment.File(ix.repo.IndexDir, id, segment.GramsFile))
	if err != nil {
		return err
	}
	defer grams.Close()
	var keepSHA func([20]byte) bool
	if keep != nil {
		keepSHA = func(sha [20]byte) bool { return keep(plumbing.Hash(sha)) }
	}
	if err := gw.Append(grams, func(b int) [20]byte { return ct.BlobSHA(b) }, keepSHA); err != nil {
		return err
	}
	srcVecs := map[string]*vector.Segment{}
	for _, name := range models {
		vs, err := segment.OpenSegmentVectors(ix.repo.IndexDir, id, name)
		if err != nil {
			return err
		}
		defer vs.Close()
		srcVecs[name] = vs
		if vecs[name] == nil {
			vecs[name] = &vecRows{dim: vs.Dim()}
		}
	}
	// Blobs in row order, so that old rows map to increasing new rows.
	order := make([]int, ct.Nblobs)
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(a, b int) bool {
		fa, _ := ct.BlobRange(order[a])
		fb, _ := ct.BlobRange(order[b])
		return fa < fb
	})
	rowMap := make([]int32, ct.Nrows)
	for i := range rowMap {
		rowMap[i] = -1
	}
	for _, b := range order {
		sha := ct.BlobSHA(b)
		if keep != nil && !keep(sha) {
			continue
		}
		first, n := ct.BlobRange(b)
		info := ct.BlobInfo(b)
		base := len(seg.Rows)
		details, err := ct.DetailFrame(b)
		if err != nil {
			return err
		}
		details = bytes.Clone(details) // the source is unmapped before the merged segment is written
		rows := make([]segment.Row, n)
		for i := range rows {
			r := ct.Row(first + i)
			if r.Parent >= 0 {
				r.Parent = r.Parent - first + base
			}
			rows[i] = r
			rowMap[first+i] = int32(base + i)
			for name, vs := range srcVecs {
				q, s, err := vs.RowErr(first + i)
				if err != nil {
					return fmt.Errorf("read vectors: %w", err)
				}
				vecs[name].q = append(vecs[name].q, q)
				vecs[name].scales = append(vecs[name].scales, s)
			}
		}
		seg.AddBlobDetails(sha, info, rows, details)
	}
	return lw.Append(lex, rowMap)
}

// vectorFiles lists a segment's vector locators.
func vectorFiles(indexDir, id string) ([]string, error) {
	entries, err := os.ReadDir(filepath.Join(indexDir, "segments", id))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	var out []string
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "vec-") && strings.HasSuffix(e.Name(), ".loc") {
			out = append(out, e.Name())
		}
	}
	return out, nil
}

func intersect(a, b []string) []string {
	set := map[string]bool{}
	for _, x := range b {
		set[x] = true
	}
	var out []string
	for _, x := range a {
		if set[x] {
			out = append(out, x)
		}
	}
	return out
}
