package indexer

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/internal/testkit/gittest"
	"github.com/bcindex/bcindex/segment"
	"github.com/bcindex/bcindex/store"
)

// TestWrittenSegmentsAreRecordedVerified: the files an index run writes are
// recorded as verified (their checksums came from the bytes written), so
// the next open does not read them all again; a byte changed afterwards
// still gives the file another identity and is caught.
func TestWrittenSegmentsAreRecordedVerified(t *testing.T) {
	r := gittest.New(t)
	r.Commit("init", map[string]string{"calc.go": goFile})
	emb := embed.Default()
	repo, m := indexHEAD(t, r.Dir, emb)
	id := m.Segments[0]
	rec, err := os.ReadFile(segment.File(repo.IndexDir, id, "verified"))
	if err != nil {
		t.Fatalf("no record of verified files after the run that wrote them: %v", err)
	}
	for _, name := range []string{"chunks.bin", "lex.bin", segment.VectorFileName(emb.ID()) + "#0"} {
		if !strings.Contains(string(rec), name+"\t") {
			t.Errorf("%s not recorded as verified:\n%s", name, rec)
		}
	}

	p := segment.File(repo.IndexDir, id, "chunks.bin")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)-1] ^= 0x10 // in the body, past the header
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	snap, err := store.OpenSnapshot(repo.IndexDir, emb.ID())
	if err != nil {
		t.Fatal(err)
	}
	defer snap.Close()
	if len(snap.Damaged) != 1 || snap.Damaged[0].ID != id {
		t.Fatalf("a flipped byte in %s after it was recorded: damaged %v, want segment %s", filepath.Base(p), snap.Damaged, id)
	}
}
