package indexer

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/internal/testkit/gittest"
	"github.com/bcindex/bcindex/store"
)

// versionedFile is a Go file of 12 functions, function `edited` changed
// in version v.
func versionedFile(v, edited int) string {
	var b strings.Builder
	b.WriteString("package p\n")
	for f := 0; f < 12; f++ {
		body := fmt.Sprintf("return %d", f)
		if f == edited {
			body = fmt.Sprintf("return %d * %d", f, v+2)
		}
		fmt.Fprintf(&b, "\n// F%d computes value %d.\nfunc F%d() int {\n\t%s\n}\n", f, f, f, body)
	}
	return b.String()
}

// TestVersionsShareVectors: versions of a file that repeat most of its
// functions store each function's vector once per segment, also once
// merges put the versions together, segments share the vectors of
// contents that other segments store, and every row still reads the
// vector of its content.
func TestVersionsShareVectors(t *testing.T) {
	r := gittest.New(t)
	emb := embed.Default()
	const versions = 11 // one run each: more than maxSegments, so runs merge
	for v := 0; v < versions; v++ {
		r.Commit(fmt.Sprintf("v%d", v), map[string]string{"p/p.go": versionedFile(v, v)})
		indexRevs(t, r.Dir, emb, "HEAD")
	}
	repo, err := gitindex.OpenRepo(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	defer repo.Close()
	snap, err := store.OpenSnapshot(repo.IndexDir, emb.ID())
	if err != nil {
		t.Fatal(err)
	}
	defer snap.Close()
	if len(snap.Segments) >= versions {
		t.Fatalf("%d segments for %d runs: none merged", len(snap.Segments), versions)
	}
	byHash := map[[16]byte][]int8{}
	rows, perSegment, shared := 0, 0, false
	var ids []string
	for _, seg := range snap.Segments {
		if seg.Vec == nil {
			t.Fatalf("segment %s has no vectors", seg.ID)
		}
		_, distinct := seg.Table.VectorIndex()
		if seg.Vec.Len() != seg.Rows() {
			t.Errorf("segment %s: %d rows mapped of %d", seg.ID, seg.Vec.Len(), seg.Rows())
		}
		shared = shared || distinct < seg.Rows()
		rows += seg.Rows()
		perSegment += distinct
		ids = append(ids, seg.ID)
		for row := 0; row < seg.Rows(); row++ {
			h, indexed := seg.RowHash(row)
			q, scale := seg.Vec.Row(row)
			if !indexed {
				continue
			}
			if q == nil || scale <= 0 {
				t.Fatalf("segment %s row %d: no vector", seg.ID, row)
			}
			if prev, ok := byHash[h]; ok && !slices.Equal(prev, q) {
				t.Fatalf("segment %s row %d: another vector than its content's elsewhere", seg.ID, row)
			}
			byHash[h] = q
		}
	}
	// Each part once, however many segments share it.
	stored := store.VectorRows(repo.IndexDir, ids)
	t.Logf("%d segments, %d rows, %d distinct contents per segment, %d vectors stored", len(snap.Segments), rows, perSegment, stored)
	// 11 versions of 13 chunks (the file and its functions): 143 rows;
	// distinct are 12 functions, 10 edits more and 11 file chunks.
	if !shared || stored >= perSegment || rows < versions*13 {
		t.Errorf("%d vectors stored for %d rows, %d distinct contents per segment", stored, rows, perSegment)
	}
}
