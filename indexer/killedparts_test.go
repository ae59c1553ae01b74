package indexer

import (
	"fmt"
	"testing"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/internal/testkit/gittest"
	"github.com/bcindex/bcindex/internal/testkit/storetest"
	"github.com/bcindex/bcindex/segment"
	"github.com/bcindex/bcindex/store"
	"github.com/bcindex/bcindex/store/storewrite"
)

// TestRunDropsPartsOfAKilledRun: a killed run wrote vector parts under the
// segment ID the next run takes, more of them than that run writes, and
// under the ID after it. The next run leaves Badger holding, for the ID it
// reuses, only the parts its locator names, and none for the other.
func TestRunDropsPartsOfAKilledRun(t *testing.T) {
	r := gittest.New(t)
	r.Commit("init", manyFiles(20))
	emb := embed.Default()
	repo, m := indexHEAD(t, r.Dir, emb)
	next, after := segment.ID(m.Next), segment.ID(m.Next+1)
	name := segment.VectorFileName(emb.ID())

	st, err := storewrite.OpenStore(repo.IndexDir)
	if err != nil {
		t.Fatal(err)
	}
	b := st.NewBatch()
	for _, id := range []string{next, after} {
		for i := 0; i < 5; i++ {
			part := make([]byte, storewrite.MinPart)
			part[0] = byte(i)
			if err := b.PutVectorPart(id, name, i, part); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := b.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	if n := storetest.PartKeys(t, repo.IndexDir, next); n != 5 {
		t.Fatalf("setup: %d parts under %s", n, next)
	}

	r.Commit("more", map[string]string{"more/a.go": fmt.Sprintf("package more\n\nfunc Added() int { return %d }\n", 42)})
	indexRevs(t, r.Dir, emb, "HEAD")
	m2, err := store.ReadManifest(repo.IndexDir)
	if err != nil || len(m2.Segments) != 2 || m2.Segments[1] != next {
		t.Fatalf("manifest %v (%v), want a second segment %s", m2, err, next)
	}
	l, err := segment.ReadLocator(segment.File(repo.IndexDir, next, name))
	if err != nil {
		t.Fatal(err)
	}
	if n := storetest.PartKeys(t, repo.IndexDir, next); n != len(l.Parts) || n >= 5 {
		t.Errorf("segment %s: %d parts in the store, its locator names %d", next, n, len(l.Parts))
	}
	if n := storetest.PartKeys(t, repo.IndexDir, after); n != 0 {
		t.Errorf("%d parts left under %s, which no segment holds", n, after)
	}
}
