package indexer

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/bcindex/bcindex/chunk/vocab"
	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/segment"
	"github.com/bcindex/bcindex/store"
	"github.com/bcindex/bcindex/store/storewrite"
	"github.com/bcindex/bcindex/vector"
)

// backfillVectors gives every live segment vectors of the configured
// model. Segments written under another model (or with vectors off) gain
// them here: vectors another segment holds for a chunk's content are
// reused, the rest are embedded from the blob text. The segment's locator
// appears only once its vectors are in Badger, and vectors of other models
// are kept until gc, so switching models never mixes vectors.
func (ix *Indexer) backfillVectors(ctx context.Context, st *storewrite.Store, m *store.Manifest, sum *Summary) error {
	emb := ix.opts.Embedder
	if emb == nil {
		return nil
	}
	missing := ix.segmentsWithoutVectors(m)
	if len(missing) == 0 {
		return nil
	}
	snap, err := store.OpenSegments(ix.repo.IndexDir, m.Segments, emb.ID())
	if err != nil {
		return err
	}
	defer snap.Close()
	stored := newStoredVectors(snap, nil)
	for _, id := range missing {
		if err := ix.backfillSegment(ctx, st, stored, id, emb, sum); err != nil {
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
		_, err := os.Stat(segment.File(ix.repo.IndexDir, id, segment.VectorFileName(ix.opts.Embedder.ID())))
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

func (ix *Indexer) backfillSegment(ctx context.Context, st *storewrite.Store, stored *storedVectors, id string, emb embed.Embedder, sum *Summary) error {
	ct, err := segment.OpenTable(segment.File(ix.repo.IndexDir, id, segment.ChunksFile))
	if err != nil {
		return err
	}
	defer ct.Close()
	vecs := make([][]int8, ct.Nrows)
	scales := make([]float32, ct.Nrows)
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
			vecs[row], scales[row] = vector.Quantize(out[k])
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
		rows := make([]segment.Row, n)
		var missing []int
		for i := range rows {
			rows[i] = ct.RowDetail(first + i)
			if !rows[i].Indexed {
				continue
			}
			if q, s, ok := stored.get(rows[i].Hash); ok {
				vecs[first+i], scales[first+i] = q, s
				sum.VectorsReused++
				continue
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
		f := segment.BlobSpans{First: first, Rows: rows}
		for _, i := range missing {
			text := vocab.IndexText(content, f, i)
			if store.ContentHash(text) != rows[i].Hash {
				continue // chunked by another chunker version: leave without a vector
			}
			p.texts = append(p.texts, text)
			p.sigs = append(p.sigs, rows[i].Signature)
			p.rows = append(p.rows, first+i)
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
	// One vector per distinct content is stored (segment.Table.VectorIndex).
	idx, n := ct.VectorIndex()
	kept := &segment.VectorRows{Dim: emb.Dim(), Q: make([][]int8, n), Scales: make([]float32, n)}
	for r, i := range idx {
		if i >= 0 && kept.Q[i] == nil && vecs[r] != nil {
			kept.Q[i], kept.Scales[i] = vecs[r], scales[r]
		}
	}
	name := segment.VectorFileName(emb.ID())
	enc, err := storeVectors(st, id, map[string]*segment.VectorRows{name: kept})
	if err != nil {
		return err
	}
	dir := segment.Dir(ix.repo.IndexDir, id)
	if err := segment.WriteLocators(dir, enc); err != nil {
		return err
	}
	return segment.SyncDir(dir)
}

// pendingVectors are the chunks of a backfill waiting for one Embed call.
type pendingVectors struct {
	texts, sigs []string
	rows        []int // segment rows
}
