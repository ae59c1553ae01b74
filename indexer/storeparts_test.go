package indexer

import (
	"testing"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/indexing"
	"github.com/bcindex/bcindex/internal/testkit/gittest"
	"github.com/bcindex/bcindex/segment"
	"github.com/bcindex/bcindex/store"
)

// TestStorePartsAccountForTheStore: the parts of an indexed store add up
// to its size on disk, and the vectors are the live segments' parts in
// the value log, one per distinct content of a segment.
func TestStorePartsAccountForTheStore(t *testing.T) {
	r := gittest.New(t)
	r.Commit("init", manyFiles(40))
	emb := embed.Default()
	repo, m := indexHEAD(t, r.Dir, emb)
	p := store.StoreParts(repo.IndexDir)
	if total, size := p.Total(), indexing.DirSize(repo.IndexDir); total != size {
		t.Errorf("parts add up to %d bytes, the store is %d: %+v", total, size, p)
	}
	if p.Segments != len(m.Segments) || p.Chunks == 0 || p.Postings == 0 || p.Trigrams == 0 || p.Tables+p.DBOther == 0 || p.Trees == 0 {
		t.Errorf("parts %+v", p)
	}
	rows := 0
	for _, id := range m.Segments {
		ct, err := segment.OpenTable(segment.File(repo.IndexDir, id, segment.ChunksFile))
		if err != nil {
			t.Fatal(err)
		}
		_, n := ct.VectorIndex()
		rows += n
		ct.Close()
	}
	if p.VectorRows != int64(rows) || p.Vectors < int64(rows*emb.Dim()) || p.ValueLog < p.Vectors {
		t.Errorf("%d vector rows in %d bytes, log %d bytes, for %d distinct contents of %d dimensions", p.VectorRows, p.Vectors, p.ValueLog, rows, emb.Dim())
	}
}
