package indexer

import (
	"fmt"
	"os"
	"slices"
	"time"

	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/segment"
	"github.com/bcindex/bcindex/store"
	"github.com/bcindex/bcindex/store/storewrite"
)

// maxDocBytes caps the doc comment kept in a segment row for display; the
// whole comment is in the chunk's text, read from the blob.
const maxDocBytes = 300

// checkpointBytes bounds the bytes of blobs a run adds before it
// publishes them, besides Options.CheckpointBlobs: about 10-20 seconds of
// indexing on a loaded 2-core machine, so that a killed run loses little.
const checkpointBytes = 64 << 20

// runWriter collects processed blobs and publishes them as segments: Badger
// first (durable records and the segment's vectors), then the segment
// files, then the manifest that makes them visible. A crash between steps
// leaves an orphan segment (removed by the next run), Badger records
// without a segment (their blobs are re-read) or vector parts of no live
// segment (deleted by gc).
type runWriter struct {
	ix      *Indexer
	store   *storewrite.Store
	m       *store.Manifest
	batch   *storewrite.Batch
	seg     *segment.Writer
	stored  *storedVectors // learns the vectors the run computed
	vecs    [][]int8
	scales  []float32
	pending int
	// pendingBytes are the bytes of the blobs added since the last publish.
	pendingBytes int64
	left         int       // blobs still to be added
	published    time.Time // last publish (or start)
}

func newRunWriter(ix *Indexer, st *storewrite.Store, m *store.Manifest, blobs int) *runWriter {
	w := &runWriter{ix: ix, store: st, m: m, batch: st.NewBatch(), left: blobs, published: time.Now()}
	w.seg = w.newSegment()
	return w
}

// termsPerBlob is about how many distinct terms each blob adds to a
// segment's postings: 119 on the bench's second branch (21,044 terms for
// 177 Go files); segments of 4,000 blobs of its full index hold 87k-187k,
// which maxTerms covers.
const (
	termsPerBlob = 120
	maxTerms     = 1 << 17
)

// newSegment returns the writer of the next segment, its postings sized
// for the blobs it will hold.
func (w *runWriter) newSegment() *segment.Writer {
	return segment.NewWriter(min(min(w.left, w.ix.opts.CheckpointBlobs)*termsPerBlob, maxTerms))
}

func (w *runWriter) add(r *blobResult, sum *Summary) error {
	if err := w.batch.PutBlob(r.sha, r.rec); err != nil {
		return err
	}
	base := w.seg.Rows()
	rows := make([]segment.Row, len(r.rec.Chunks))
	for i, c := range r.rec.Chunks {
		parent := -1
		if c.Parent >= 0 {
			parent = base + c.Parent
		}
		rows[i] = segment.Row{Parent: parent, Kind: c.Kind, Language: r.rec.Language, SyntaxError: c.SyntaxError,
			Indexed: r.tokens[i] != nil, StartLine: c.StartLine, EndLine: c.EndLine, StartByte: c.StartByte,
			EndByte: c.EndByte, Name: c.Name, Signature: c.Signature, Hash: c.Hash}
		meta := c.Meta
		meta.Doc = segment.Clip(c.Doc, maxDocBytes)
		rows[i].MetaBytes = segment.EncodeMeta(meta)
		w.vecs = append(w.vecs, r.vectors[i])
		w.scales = append(w.scales, r.scales[i])
		if c.Hash != ([16]byte{}) {
			w.stored.remember(c.Hash, r.vectors[i], r.scales[i])
		}
	}
	info := segment.BlobInfo{Size: int64(r.size), Skip: r.rec.Skip, SyntaxErrors: r.rec.SyntaxErrors, Fallback: r.rec.Fallback}
	if err := w.seg.Add(r.sha, info, rows, r.tokens, r.grams, r.binary, r.text); err != nil {
		return err
	}
	if r.pieces != nil {
		if err := w.seg.Grams.AddPieces(r.sha, r.pieces); err != nil {
			return err
		}
	}
	w.pending++
	w.pendingBytes += int64(r.size)
	w.left--
	if r.exactOnly {
		return nil // counted with the listing's skipped files
	}
	sum.BlobsNew++
	if r.spliced {
		sum.BlobsEdited++
	}
	sum.Chunks += len(rows)
	sum.Embedded += r.embedded
	sum.VectorsReused += r.reused
	if r.rec.Skip != gitindex.SkipNone {
		sum.Skipped[r.rec.Skip]++
	} else {
		sum.Bytes += int64(r.size)
	}
	if r.rec.SyntaxErrors > 0 {
		sum.SyntaxErrors++
		if r.rec.Fallback {
			sum.SevereErrors++
		}
	}
	if r.rec.Fallback {
		sum.Fallback++
	}
	return nil
}

// publish makes everything added so far durable and visible. After the
// last publish of a run (flushed not nil), the store is not written again:
// flushed is called once Badger holds the records and vectors, and the
// segment files are written while the caller closes the store (unless
// segments are to be merged, which writes vectors).
func (w *runWriter) publish(flushed func()) error {
	if w.pending == 0 {
		return nil
	}
	id := segment.ID(w.m.Next)
	vecs := map[string]*segment.VectorRows{}
	var hashes [][16]byte
	if emb := w.ix.opts.Embedder; emb != nil {
		v, h, err := w.seg.StoredVectors(&segment.VectorRows{Dim: emb.Dim(), Q: w.vecs, Scales: w.scales})
		if err != nil {
			return fmt.Errorf("write segment %s: %w", id, err)
		}
		vecs[segment.VectorFileName(emb.ID())], hashes = v, h
	}
	shared, err := w.ix.shareVectors(vecs, hashes, w.m.Segments)
	if err != nil {
		return fmt.Errorf("write segment %s: %w", id, err)
	}
	enc, err := segment.EncodeVectors(vecs, storewrite.MinPart)
	if err != nil {
		return fmt.Errorf("write segment %s: %w", id, err)
	}
	attachShared(enc, shared)
	w.vecs, w.scales = nil, nil
	if err := w.batch.Flush(); err != nil {
		return err
	}
	if err := putVectors(w.store, id, enc); err != nil {
		return err
	}
	if err := locateVectors(w.store, id, enc); err != nil {
		return err
	}
	dir := segment.Dir(w.ix.repo.IndexDir, id)
	if err := segment.WriteLocators(dir, enc); err != nil {
		os.RemoveAll(dir)
		return fmt.Errorf("write segment %s: %w", id, err)
	}
	merging := len(w.m.Segments)+1 > maxSegments
	switch {
	case flushed == nil:
		w.batch = w.store.NewBatch()
	case !merging:
		flushed()
	}
	if err := w.seg.WriteFiles(dir); err != nil {
		os.RemoveAll(dir)
		return fmt.Errorf("write segment %s: %w", id, err)
	}
	next := *w.m
	next.Segments = append(append([]string(nil), w.m.Segments...), id)
	next.Next++
	if err := storewrite.WriteManifest(w.ix.repo.IndexDir, &next); err != nil {
		return err
	}
	*w.m = next
	if err := w.ix.mergeSmallSegments(w.store, w.m); err != nil {
		return fmt.Errorf("merge segments: %w", err)
	}
	if flushed != nil && merging {
		flushed()
	}
	w.seg = w.newSegment()
	w.pending, w.pendingBytes = 0, 0
	w.published = time.Now()
	return nil
}

// putVectors stores a segment's encoded vectors in Badger, by file name,
// then part by part, each part flushed on its own: the entries of one
// batch reach Badger's log in no fixed order, and the locators, which
// name where the parts are, are then the same on every run that wrote the
// same before. Each part's pages leave the resident set once flushed
// (Store.DropMappedPages).
func putVectors(st *storewrite.Store, id string, enc map[string]*segment.EncodedVectors) error {
	names := make([]string, 0, len(enc))
	for name := range enc {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		for i, p := range enc[name].Parts {
			b := st.NewBatch()
			if err := b.PutVectorPart(id, name, i, p); err != nil {
				b.Cancel()
				return err
			}
			if err := b.Flush(); err != nil {
				return err
			}
			st.DropMappedPages()
		}
	}
	return nil
}

// locateVectors finds where Badger stored the flushed parts, and drops the
// parts' bytes.
func locateVectors(st *storewrite.Store, id string, enc map[string]*segment.EncodedVectors) error {
	for name, e := range enc {
		locs, err := st.LocateVectorParts(id, name, e.Parts, e.Sizes)
		if err != nil {
			return err
		}
		e.Locs, e.Parts = locs, nil
	}
	return nil
}

// storeVectors stores a segment's vectors in Badger and finds where they
// went, for a segment written outside a run (a merge, a backfill).
func storeVectors(st *storewrite.Store, id string, vecs map[string]*segment.VectorRows) (map[string]*segment.EncodedVectors, error) {
	enc, err := segment.EncodeVectors(vecs, storewrite.MinPart)
	if err != nil {
		return nil, fmt.Errorf("write vectors of segment %s: %w", id, err)
	}
	if err := putVectors(st, id, enc); err != nil {
		return nil, err
	}
	if err := locateVectors(st, id, enc); err != nil {
		return nil, err
	}
	return enc, nil
}
