package indexer

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/lexical"
	"github.com/bcindex/bcindex/store"
	"github.com/bcindex/bcindex/vector"
)

// maxDocBytes caps the doc comment kept in a segment row for display; the
// whole comment is in the chunk's text, read from the blob.
const maxDocBytes = 300

// runWriter collects processed blobs and publishes them as segments: Badger
// first (durable records and vectors), then the segment files, then the
// manifest that makes them visible. A crash between steps leaves either an
// orphan segment (removed by the next run) or Badger records without a
// segment (their blobs are re-read, their vectors reused).
type runWriter struct {
	ix        *Indexer
	store     *store.Store
	m         *store.Manifest
	batch     *store.Batch
	seg       store.SegmentWriter
	lex       *lexical.Writer
	vecs      [][]int8
	scales    []float32
	pending   int
	published time.Time // last publish (or start)
}

func newRunWriter(ix *Indexer, st *store.Store, m *store.Manifest) *runWriter {
	return &runWriter{ix: ix, store: st, m: m, batch: st.NewBatch(), lex: lexical.NewWriter(), published: time.Now()}
}

func (w *runWriter) add(r *blobResult, sum *Summary) error {
	if err := w.batch.PutBlob(r.sha, r.rec); err != nil {
		return err
	}
	if emb := w.ix.opts.Embedder; emb != nil {
		for _, i := range r.newVecs {
			key := vector.Key(emb.ID(), r.rec.Chunks[i].Hash[:])
			if err := w.batch.Put(key, vector.Encode(r.vectors[i], r.scales[i])); err != nil {
				return err
			}
		}
	}
	base := len(w.seg.Rows)
	rows := make([]store.Row, len(r.rec.Chunks))
	for i, c := range r.rec.Chunks {
		parent := -1
		if c.Parent >= 0 {
			parent = base + c.Parent
		}
		rows[i] = store.Row{Parent: parent, Kind: c.Kind, Language: r.rec.Language, SyntaxError: c.SyntaxError,
			Indexed: r.tokens[i] != nil, StartLine: c.StartLine, EndLine: c.EndLine, StartByte: c.StartByte,
			EndByte: c.EndByte, Name: c.Name, Signature: c.Signature, Hash: c.Hash}
		meta := c.Meta
		meta.Doc = store.Clip(c.Doc, maxDocBytes)
		rows[i].MetaBytes = store.EncodeMeta(meta)
		if r.tokens[i] != nil {
			w.lex.Add(base+i, r.tokens[i])
		}
		w.vecs = append(w.vecs, r.vectors[i])
		w.scales = append(w.scales, r.scales[i])
	}
	w.seg.AddBlob(r.sha, store.BlobInfo{Size: int64(r.size), Skip: r.rec.Skip, SyntaxErrors: r.rec.SyntaxErrors, Fallback: r.rec.Fallback}, rows)
	w.pending++
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
// flushed is called once Badger holds the records, and the segment is
// written while the caller closes the store.
func (w *runWriter) publish(flushed func()) error {
	if w.pending == 0 {
		return nil
	}
	if err := w.batch.Flush(); err != nil {
		return err
	}
	if flushed != nil {
		flushed()
	} else {
		w.batch = w.store.NewBatch()
	}
	id := fmt.Sprintf("%08d", w.m.Next)
	dir := filepath.Join(w.ix.repo.IndexDir, "segments", id)
	if err := w.writeSegment(dir); err != nil {
		os.RemoveAll(dir)
		return fmt.Errorf("write segment %s: %w", id, err)
	}
	next := *w.m
	next.Segments = append(append([]string(nil), w.m.Segments...), id)
	next.Next++
	if err := store.WriteManifest(w.ix.repo.IndexDir, &next); err != nil {
		return err
	}
	*w.m = next
	if err := w.ix.mergeSmallSegments(w.m); err != nil {
		return fmt.Errorf("merge segments: %w", err)
	}
	w.seg = store.SegmentWriter{}
	w.lex = lexical.NewWriter()
	w.vecs, w.scales = nil, nil
	w.pending = 0
	w.published = time.Now()
	return nil
}

func (w *runWriter) writeSegment(dir string) error {
	vecs := map[string]*vecRows{}
	if emb := w.ix.opts.Embedder; emb != nil {
		vecs[store.VectorFileName(emb.ID())] = &vecRows{dim: emb.Dim(), q: w.vecs, scales: w.scales}
	}
	return writeSegmentFiles(dir, &w.seg, w.lex, vecs)
}

// vecRows are the vectors of one model for every row of a segment.
type vecRows struct {
	dim    int
	q      [][]int8
	scales []float32
}

// writeSegmentFiles writes a complete segment directory: chunk table,
// postings and one vector file per model (keyed by file name).
func writeSegmentFiles(dir string, seg *store.SegmentWriter, lex *lexical.Writer, vecs map[string]*vecRows) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	// The files are independent: encoding one (sorting the postings,
	// compressing details) overlaps with writing and syncing the others.
	var g errgroup.Group
	g.Go(func() error { return gitindex.WriteFileAtomic(filepath.Join(dir, "chunks.bin"), seg.Encode()) })
	g.Go(func() error { return lex.WriteFile(filepath.Join(dir, "lex.bin")) })
	for name, v := range vecs {
		g.Go(func() error { return writeVectors(filepath.Join(dir, name), v) })
	}
	if err := g.Wait(); err != nil {
		return err
	}
	if err := syncDir(dir); err != nil {
		return err
	}
	names := []string{"chunks.bin", "lex.bin"}
	for name := range vecs {
		names = append(names, name)
	}
	store.RecordWritten(dir, names...)
	return nil
}

// writeVectors writes one model's vectors as a vector segment file.
func writeVectors(p string, v *vecRows) error {
	vw, err := vector.Create(p, v.dim)
	if err != nil {
		return err
	}
	for i := range v.q {
		if err := vw.Add(v.q[i], v.scales[i]); err != nil {
			return err // Add removed the temporary file
		}
	}
	return vw.Finish()
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}
