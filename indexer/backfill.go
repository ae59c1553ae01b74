package indexer

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/bcindex/bcindex/chunk"
	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/store"
	"github.com/bcindex/bcindex/vector"
)

// backfillVectors gives every live segment a vector file for the configured
// model. Segments written under another model (or with vectors off) gain one
// here: vectors already in Badger for a chunk's content hash are reused, the
// rest are embedded from the blob text. Adding a file is invisible to readers
// until it is complete (rename), and stored vectors of other models are kept
// until gc, so switching models never mixes vectors.
func (ix *Indexer) backfillVectors(ctx context.Context, st *store.Store, m *store.Manifest, sum *Summary) error {
	emb := ix.opts.Embedder
	if emb == nil {
		return nil
	}
	for _, id := range ix.segmentsWithoutVectors(m) {
		p := store.SegmentFile(ix.repo.IndexDir, id, store.VectorFileName(emb.ID()))
		if err := ix.backfillSegment(ctx, st, id, p, emb, sum); err != nil {
			return fmt.Errorf("backfill vectors of segment %s: %w", id, err)
		}
	}
	return nil
}

// segmentsWithoutVectors lists the live segments that lack a vector file
// for the configured model.
func (ix *Indexer) segmentsWithoutVectors(m *store.Manifest) []string {
	if ix.opts.Embedder == nil {
		return nil
	}
	var out []string
	for _, id := range m.Segments {
		_, err := os.Stat(store.SegmentFile(ix.repo.IndexDir, id, store.VectorFileName(ix.opts.Embedder.ID())))
		if errors.Is(err, fs.ErrNotExist) {
			out = append(out, id)
		}
	}
	return out
}

// backfillBatch is how many chunk texts one Embed call of a backfill
// carries, across blobs: a remote embedder gets a request per batch (cut
// further within its limits), not one per blob.
const backfillBatch = 512

func (ix *Indexer) backfillSegment(ctx context.Context, st *store.Store, id, path string, emb embed.Embedder, sum *Summary) error {
	ct, err := store.OpenChunkTable(store.SegmentFile(ix.repo.IndexDir, id, "chunks.bin"))
	if err != nil {
		return err
	}
	defer ct.Close()
	vecs := make([][]int8, ct.Nrows)
	scales := make([]float32, ct.Nrows)
	batch := st.NewBatch()
	defer batch.Cancel()
	var p pendingVectors
	flush := func() error {
		if len(p.texts) == 0 {
			return nil
		}
		out, err := embedChunks(ctx, emb, p.texts, p.sigs)
		if err != nil {
			return fmt.Errorf("embed %d chunks: %w", len(p.texts), err)
		}
		for k, row := range p.rows {
			q, s := vector.Quantize(out[k])
			vecs[row], scales[row] = q, s
			if err := batch.Put(vector.Key(emb.ID(), p.hashes[k][:]), vector.Encode(q, s)); err != nil {
				return err
			}
		}
		sum.Embedded += len(p.rows)
		p = pendingVectors{}
		return nil
	}
	if pr := ix.opts.Progress; pr != nil {
		pr.Start(ct.Nblobs)
		defer pr.Finish()
	}
	for b := 0; b < ct.Nblobs; b++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		if pr := ix.opts.Progress; pr != nil {
			pr.Add(1, 0)
		}
		first, n := ct.BlobRange(b)
		if n == 0 {
			continue
		}
		rows := make([]store.Row, n)
		var missing []int
		for i := range rows {
			rows[i] = ct.RowDetail(first + i)
			if !rows[i].Indexed {
				continue
			}
			v, err := st.Get(vector.Key(emb.ID(), rows[i].Hash[:]))
			if err != nil {
				return err
			}
			if v != nil {
				if q, s, err := vector.Decode(v); err == nil {
					vecs[first+i], scales[first+i] = q, s
					sum.VectorsReused++
					continue
				}
			}
			missing = append(missing, i)
		}
		if len(missing) == 0 {
			continue
		}
		content, err := ix.repo.ReadBlob(ct.BlobSHA(b))
		if err != nil {
			return err
		}
		f := fileFromRows(rows, first)
		for _, i := range missing {
			text := chunk.IndexText(content, f, i)
			if store.ContentHash(text) != rows[i].Hash {
				continue // chunked by another chunker version: leave without a vector
			}
			p.texts = append(p.texts, text)
			p.sigs = append(p.sigs, rows[i].Signature)
			p.rows = append(p.rows, first+i)
			p.hashes = append(p.hashes, rows[i].Hash)
		}
		if len(p.texts) >= backfillBatch {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	if err := flush(); err != nil {
		return err
	}
	if err := batch.Flush(); err != nil {
		return err
	}
	vw, err := vector.Create(path, emb.Dim())
	if err != nil {
		return err
	}
	for i := range vecs {
		if err := vw.Add(vecs[i], scales[i]); err != nil {
			return err
		}
	}
	if err := vw.Finish(); err != nil {
		return err
	}
	return syncDir(filepath.Dir(path))
}

// pendingVectors are the chunks of a backfill waiting for one Embed call.
type pendingVectors struct {
	texts, sigs []string
	rows        []int // segment rows
	hashes      [][16]byte
}

// fileFromRows rebuilds the chunk list of one blob from its segment rows,
// enough for chunk.IndexText.
func fileFromRows(rows []store.Row, first int) chunk.File {
	f := chunk.File{Chunks: make([]chunk.Chunk, len(rows))}
	for i, r := range rows {
		parent := -1
		if r.Parent >= 0 {
			parent = r.Parent - first
		}
		f.Chunks[i] = chunk.Chunk{Kind: r.Kind, Name: r.Name, Parent: parent, Signature: r.Signature,
			StartLine: r.StartLine, EndLine: r.EndLine, StartByte: r.StartByte, EndByte: r.EndByte, SyntaxError: r.SyntaxError}
	}
	return f
}
