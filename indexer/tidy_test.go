package indexer

import (
	"context"
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/internal/testkit/gittest"
	"github.com/bcindex/bcindex/store"
	"github.com/bcindex/bcindex/store/storewrite"
)

// vectorAnswers opens the index's snapshot and returns every row's vector
// by segment and a vector search of each segment for a few stored rows'
// vectors: what queries read.
func vectorAnswers(t *testing.T, indexDir string, emb embed.Embedder) (map[string][][]int8, []string) {
	t.Helper()
	snap, err := store.OpenSnapshot(indexDir, emb.ID())
	if err != nil {
		t.Fatal(err)
	}
	defer snap.Close()
	rows := map[string][][]int8{}
	var queries [][]float32
	for _, seg := range snap.Segments {
		if seg.Vec == nil {
			t.Fatalf("segment %s has no vectors", seg.ID)
		}
		if err := seg.Vec.Verify(); err != nil {
			t.Fatalf("segment %s: %v", seg.ID, err)
		}
		for row := 0; row < seg.Vec.Len(); row++ {
			q, _ := seg.Vec.Row(row)
			rows[seg.ID] = append(rows[seg.ID], slices.Clone(q))
			if row%50 == 0 && q != nil {
				f := make([]float32, len(q))
				for i, x := range q {
					f[i] = float32(x)
				}
				queries = append(queries, f)
			}
		}
	}
	var hits []string
	for _, q := range queries {
		for _, seg := range snap.Segments {
			h, err := seg.Vec.Search(q, 5, nil)
			if err != nil {
				t.Fatal(err)
			}
			hits = append(hits, fmt.Sprintf("%s %v", seg.ID, h))
		}
	}
	return rows, hits
}

func vlogFiles(indexDir string) []string {
	names, _ := filepath.Glob(filepath.Join(indexDir, "db", "*.vlog"))
	return names
}

// TestIndexRunReclaimsMergedVectors: runs whose merges leave the vectors of
// merged segments dead in the value log, past the floor and past a third
// of the log, are followed by a run that rewrites the log: the store
// shrinks, and every row and search reads what it read before. The next
// run finds nothing worth a rewrite and removes no log file.
func TestIndexRunReclaimsMergedVectors(t *testing.T) {
	defer func(floor int64) { storewrite.TidyFloor = floor }(storewrite.TidyFloor)
	storewrite.TidyFloor = 1 << 40 // no tidy while the runs merge
	r := gittest.New(t)
	r.Commit("init", manyFiles(30))
	emb := embed.Default()
	indexRevs(t, r.Dir, emb, "HEAD")
	for v := 0; v < 12; v++ {
		files := map[string]string{}
		for f := 0; f < 6; f++ {
			files[fmt.Sprintf("v%d/f%d.go", v, f)] = versionedFile(v*6+f, f)
		}
		r.Commit(fmt.Sprintf("v%d", v), files)
		indexRevs(t, r.Dir, emb, "HEAD")
	}
	repo, err := gitindex.OpenRepo(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	defer repo.Close()
	dir := repo.IndexDir
	m, err := store.ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Segments) >= 13 {
		t.Fatalf("%d segments after 13 runs: none merged", len(m.Segments))
	}
	rowsBefore, hitsBefore := vectorAnswers(t, dir, emb)
	logBefore, sizeBefore := store.LogBytes(dir), store.StoreParts(dir).Total()
	dead, err := storewrite.DeadLogBytes(dir, m.Segments, 0)
	if err != nil || 3*dead <= logBefore {
		t.Fatalf("setup: %d dead bytes of a log of %d (%v)", dead, logBefore, err)
	}

	storewrite.TidyFloor = dead / 2
	indexRevs(t, r.Dir, emb, "HEAD")
	if m2, err := store.ReadManifest(dir); err != nil || !slices.Equal(m2.Segments, m.Segments) {
		t.Fatalf("the run changed the segments: %v (%v), were %v", m2, err, m.Segments)
	}
	logAfter, sizeAfter := store.LogBytes(dir), store.StoreParts(dir).Total()
	if logAfter >= logBefore-dead/2 || sizeAfter >= sizeBefore-dead/2 {
		t.Errorf("value log %d → %d bytes, store %d → %d, with %d dead", logBefore, logAfter, sizeBefore, sizeAfter, dead)
	}
	// What is left is mostly the unfilled last blocks of the log's small
	// files: below the floor, so no run rewrites again.
	if left, err := storewrite.DeadLogBytes(dir, m.Segments, 0); err != nil || left > storewrite.TidyFloor {
		t.Errorf("after the run %d of %d log bytes are dead (%v)", left, logAfter, err)
	}
	rowsAfter, hitsAfter := vectorAnswers(t, dir, emb)
	if !reflect.DeepEqual(rowsAfter, rowsBefore) {
		t.Errorf("rows read other vectors after the rewrite")
	}
	if !slices.Equal(hitsAfter, hitsBefore) || len(hitsBefore) == 0 {
		t.Errorf("searches after the rewrite:\n%s\nbefore:\n%s", strings.Join(hitsAfter, "\n"), strings.Join(hitsBefore, "\n"))
	}

	files := vlogFiles(dir)
	indexRevs(t, r.Dir, emb, "HEAD")
	for _, f := range files {
		if !slices.Contains(vlogFiles(dir), f) {
			t.Errorf("a run on a tidied log rewrote %s", f)
		}
	}
}

// TestHistoryEndsWithTheLogReclaimed: merges left more than the floor of
// the value log dead but less than a third of it, which an indexing run
// leaves alone; a history index's last run rewrites the log all the same,
// down to less than the floor dead, and every row reads what it read
// before.
func TestHistoryEndsWithTheLogReclaimed(t *testing.T) {
	defer func(floor int64) { storewrite.TidyFloor = floor }(storewrite.TidyFloor)
	storewrite.TidyFloor = 1 << 40 // no tidy while the runs merge
	r := gittest.New(t)
	r.Commit("init", manyFiles(30))
	emb := embed.Default()
	indexRevs(t, r.Dir, emb, "HEAD")
	for v := 0; v < 12; v++ {
		files := map[string]string{}
		for f := 0; f < 6; f++ {
			files[fmt.Sprintf("v%d/f%d.go", v, f)] = versionedFile(v*6+f, f)
		}
		r.Commit(fmt.Sprintf("v%d", v), files)
		indexRevs(t, r.Dir, emb, "HEAD")
	}
	// Live vectors enough that the dead ones are less than a third.
	files := map[string]string{}
	for f := 0; f < 400; f++ {
		var b strings.Builder
		fmt.Fprintf(&b, "package q%d\n", f)
		for g := 0; g < 8; g++ {
			fmt.Fprintf(&b, "\n// Q%d_%d weighs %d parcels.\nfunc Q%d_%d(n int) int {\n\treturn n * %d\n}\n", f, g, f*8+g, f, g, f*8+g)
		}
		files[fmt.Sprintf("q/q%d.go", f)] = b.String()
	}
	r.Commit("bulk", files)
	indexRevs(t, r.Dir, emb, "HEAD")

	repo, err := gitindex.OpenRepo(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	defer repo.Close()
	dir := repo.IndexDir
	m, err := store.ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	rowsBefore, _ := vectorAnswers(t, dir, emb)
	logBefore := store.LogBytes(dir)
	dead, err := storewrite.DeadLogBytes(dir, m.Segments, 0)
	if err != nil || dead == 0 || 3*dead >= logBefore {
		t.Fatalf("setup: %d dead bytes of a log of %d (%v)", dead, logBefore, err)
	}

	storewrite.TidyFloor = dead / 2
	logs := vlogFiles(dir)
	indexRevs(t, r.Dir, emb, "HEAD")
	if logAfter := store.LogBytes(dir); logAfter != logBefore || !slices.Equal(vlogFiles(dir), logs) {
		t.Fatalf("an indexing run rewrote a log a third of which is not dead: %d → %d bytes", logBefore, logAfter)
	}
	if _, err := NewIndexer(repo, Options{Embedder: emb}).IndexHistory(context.Background(), gitindex.HistoryOptions{}, 0); err != nil {
		t.Fatal(err)
	}
	if m2, err := store.ReadManifest(dir); err != nil || !slices.Equal(m2.Segments, m.Segments) {
		t.Fatalf("the history index changed the segments: %v (%v), were %v", m2, err, m.Segments)
	}
	logAfter := store.LogBytes(dir)
	left, err := storewrite.DeadLogBytes(dir, m.Segments, 0)
	if err != nil || left > storewrite.TidyFloor || logAfter >= logBefore-dead/2 {
		t.Errorf("after the history index the log of %d bytes (were %d) holds %d dead (%v)", logAfter, logBefore, left, err)
	}
	if rowsAfter, _ := vectorAnswers(t, dir, emb); !reflect.DeepEqual(rowsAfter, rowsBefore) {
		t.Errorf("rows read other vectors after the rewrite")
	}
}
