package indexer

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/lexical"
	"github.com/bcindex/bcindex/ngram"
	"github.com/bcindex/bcindex/segment"
	"github.com/bcindex/bcindex/store"
	"github.com/bcindex/bcindex/vector"
)

// maxDocBytes caps the doc comment kept in a segment row for display; the
// whole comment is in the chunk's text, read from the blob.
const maxDocBytes = 300

// runWriter collects processed blobs and publishes them as segments: Badger
// first (durable records and the segment's vectors), then the segment
// files, then the manifest that makes them visible. A crash between steps
// leaves an orphan segment (removed by the next run), Badger records
// without a segment (their blobs are re-read) or vector parts of no live
// segment (deleted by gc).
type runWriter struct {
	ix        *Indexer
	store     *store.Store
	m         *store.Manifest
	batch     *store.Batch
	seg       segment.TableWriter
	lex       *lexical.Writer
	grams     *ngram.Writer
	stored    *storedVectors // learns the vectors the run computed
	vecs      [][]int8
	scales    []float32
	pending   int
	left      int       // blobs still to be added
	published time.Time // last publish (or start)
}

func newRunWriter(ix *Indexer, st *store.Store, m *store.Manifest, blobs int) *runWriter {
	w := &runWriter{ix: ix, store: st, m: m, batch: st.NewBatch(), left: blobs, published: time.Now()}
	w.lex = w.newLexical()
	w.grams = ngram.NewWriter()
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

// newLexical returns the postings writer of the next segment, sized for
// the blobs it will hold.
func (w *runWriter) newLexical() *lexical.Writer {
	return lexical.NewWriterSize(min(min(w.left, w.ix.opts.CheckpointBlobs)*termsPerBlob, maxTerms))
}

func (w *runWriter) add(r *blobResult, sum *Summary) error {
	if err := w.batch.PutBlob(r.sha, r.rec); err != nil {
		return err
	}
	base := len(w.seg.Rows)
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
		if r.tokens[i] != nil {
			w.lex.Add(base+i, r.tokens[i])
		}
		w.vecs = append(w.vecs, r.vectors[i])
		w.scales = append(w.scales, r.scales[i])
		if c.Hash != ([16]byte{}) {
			w.stored.remember(c.Hash, r.vectors[i], r.scales[i])
		}
	}
	if r.grams != nil {
		w.grams.Add(r.sha, r.grams)
	} else if r.binary {
		w.grams.AddBinary(r.sha)
	}
	w.seg.AddBlob(r.sha, segment.BlobInfo{Size: int64(r.size), Skip: r.rec.Skip, SyntaxErrors: r.rec.SyntaxErrors, Fallback: r.rec.Fallback}, rows)
	w.pending++
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
	id := fmt.Sprintf("%08d", w.m.Next)
	vecs := map[string]*vecRows{}
	if emb := w.ix.opts.Embedder; emb != nil {
		vecs[segment.VectorFileName(emb.ID())] = &vecRows{dim: emb.Dim(), q: w.vecs, scales: w.scales}
	}
	enc, err := encodeVectors(vecs)
	if err != nil {
		return fmt.Errorf("write segment %s: %w", id, err)
	}
	w.vecs, w.scales = nil, nil
	if err := putVectors(w.batch, id, enc); err != nil {
		return err
	}
	if err := w.batch.Flush(); err != nil {
		return err
	}
	if err := locateVectors(w.store, id, enc); err != nil {
		return err
	}
	dir := filepath.Join(w.ix.repo.IndexDir, "segments", id)
	if err := writeLocators(dir, enc); err != nil {
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
	if err := writeSegmentFiles(dir, &w.seg, w.lex, w.grams); err != nil {
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
	if err := w.ix.mergeSmallSegments(w.store, w.m); err != nil {
		return fmt.Errorf("merge segments: %w", err)
	}
	if flushed != nil && merging {
		flushed()
	}
	w.seg = segment.TableWriter{}
	w.lex = w.newLexical()
	w.grams = ngram.NewWriter()
	w.pending = 0
	w.published = time.Now()
	return nil
}

// vecRows are the vectors of one model for every row of a segment.
type vecRows struct {
	dim    int
	q      [][]int8
	scales []float32
}

// encodedVectors are one model's vectors of a segment as the parts Badger
// stores, and once stored, where they are.
type encodedVectors struct {
	dim, rows int
	parts     [][]byte
	sizes     []int64 // each part without its padding
	locs      []segment.PartLoc
}

// encodeVectors encodes each vector file's rows as parts (keyed by file
// name), releasing the rows of each part once it is encoded.
func encodeVectors(vecs map[string]*vecRows) (map[string]*encodedVectors, error) {
	out := map[string]*encodedVectors{}
	for name, v := range vecs {
		e := &encodedVectors{dim: v.dim, rows: len(v.q)}
		per := vector.PartRows(v.dim)
		for lo := 0; lo == 0 || lo < len(v.q); lo += per {
			hi := min(len(v.q), lo+per)
			p, err := vector.EncodeParts(v.dim, v.q[lo:hi], v.scales[lo:hi], store.MinPart)
			if err != nil {
				return nil, err
			}
			clear(v.q[lo:hi])
			e.parts = append(e.parts, p[0])
			e.sizes = append(e.sizes, vector.EncodedSize(v.dim, hi-lo))
		}
		out[name] = e
	}
	return out, nil
}

// putVectors adds a segment's encoded vectors to a batch.
func putVectors(b *store.Batch, id string, enc map[string]*encodedVectors) error {
	for name, e := range enc {
		if err := b.PutVectorParts(id, name, e.parts); err != nil {
			return err
		}
	}
	return nil
}

// locateVectors finds where Badger stored the flushed parts, and drops the
// parts' bytes.
func locateVectors(st *store.Store, id string, enc map[string]*encodedVectors) error {
	for name, e := range enc {
		locs, err := st.LocateVectorParts(id, name, e.parts, e.sizes)
		if err != nil {
			return err
		}
		e.locs, e.parts = locs, nil
	}
	return nil
}

// storeVectors stores a segment's vectors in Badger and finds where they
// went, for a segment written outside a run (a merge, a backfill).
func storeVectors(st *store.Store, id string, vecs map[string]*vecRows) (map[string]*encodedVectors, error) {
	enc, err := encodeVectors(vecs)
	if err != nil {
		return nil, fmt.Errorf("write vectors of segment %s: %w", id, err)
	}
	b := st.NewBatch()
	if err := putVectors(b, id, enc); err != nil {
		b.Cancel()
		return nil, err
	}
	if err := b.Flush(); err != nil {
		return nil, err
	}
	if err := locateVectors(st, id, enc); err != nil {
		return nil, err
	}
	return enc, nil
}

// writeLocators writes a new segment's vector locators (one per model,
// keyed by file name), first of its files: the store records the parts it
// wrote as verified, once closed, in the segments whose locators name them.
func writeLocators(dir string, enc map[string]*encodedVectors) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for name, e := range enc {
		if err := segment.WriteLocator(dir, name, e.dim, e.rows, e.locs); err != nil {
			return err
		}
	}
	return nil
}

// writeSegmentFiles completes a segment directory: chunk table, postings
// and trigrams.
func writeSegmentFiles(dir string, seg *segment.TableWriter, lex *lexical.Writer, grams *ngram.Writer) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	// The files are independent: encoding one (sorting the postings,
	// compressing details) overlaps with writing and syncing the other.
	var g errgroup.Group
	g.Go(func() error { return gitindex.WriteFileAtomic(filepath.Join(dir, "chunks.bin"), seg.Encode()) })
	g.Go(func() error { return lex.WriteFile(filepath.Join(dir, "lex.bin")) })
	g.Go(func() error {
		data, err := grams.Encode(len(seg.Blobs), seg.BlobIndex())
		if err != nil {
			return err
		}
		return gitindex.WriteFileAtomic(filepath.Join(dir, segment.GramsFile), data)
	})
	if err := g.Wait(); err != nil {
		return err
	}
	if err := syncDir(dir); err != nil {
		return err
	}
	segment.RecordWritten(dir, "chunks.bin", "lex.bin", segment.GramsFile)
	return nil
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}
