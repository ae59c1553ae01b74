package indexer

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/internal/testkit/gittest"
	"github.com/bcindex/bcindex/store"
	"github.com/bcindex/bcindex/store/storewrite"
)

// sstFiles lists the Badger tables of an index.
func sstFiles(t *testing.T, db string) []string {
	t.Helper()
	tables, _ := filepath.Glob(filepath.Join(db, "*.sst"))
	if len(tables) == 0 {
		t.Fatalf("no Badger table in %s", db)
	}
	return tables
}

func TestDamagedBadgerIsAnErrorThenSetAsideAndRebuilt(t *testing.T) {
	damages := []struct {
		name string
		do   func(t *testing.T, db string)
	}{
		{"truncated table", func(t *testing.T, db string) {
			p := sstFiles(t, db)[0]
			fi, _ := os.Stat(p)
			if err := os.Truncate(p, fi.Size()/2); err != nil {
				t.Fatal(err)
			}
		}},
		{"empty table", func(t *testing.T, db string) { os.Truncate(sstFiles(t, db)[0], 0) }},
		{"missing table", func(t *testing.T, db string) { os.Remove(sstFiles(t, db)[0]) }},
		{"garbled MANIFEST", func(t *testing.T, db string) {
			f, err := os.OpenFile(filepath.Join(db, "MANIFEST"), os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			f.WriteAt([]byte("\xff\xff\xff\x7fgarbage"), 8)
			f.Close()
		}},
		{"MANIFEST of another program", func(t *testing.T, db string) {
			os.WriteFile(filepath.Join(db, "MANIFEST"), []byte("not a badger manifest"), 0o600)
		}},
	}
	for _, d := range damages {
		t.Run(d.name, func(t *testing.T) {
			r := gittest.New(t)
			r.Commit("init", map[string]string{"calc.go": goFile, "README.md": "# Calc\n\nAdds numbers.\n"})
			indexRevs(t, r.Dir, nil, "HEAD")
			repo, err := gitindex.OpenRepo(r.Dir)
			if err != nil {
				t.Fatal(err)
			}
			db := filepath.Join(repo.IndexDir, "db")
			if err := store.CheckBadger(db, true); err != nil {
				t.Fatalf("sound database: %v", err)
			}
			d.do(t, db)
			// A stale Badger lock file, as a killed indexer leaves, is no damage.
			os.WriteFile(filepath.Join(db, "LOCK"), []byte("99999\n"), 0o600)
			if _, err := storewrite.OpenStore(repo.IndexDir); !errors.Is(err, store.ErrCorrupt) {
				t.Fatalf("open damaged store: %v, want store.ErrCorrupt", err)
			}
			sum := indexRevs(t, r.Dir, nil, "HEAD")
			if !strings.Contains(sum.Repaired, "moved it to "+db+".damaged") || sum.BlobsNew != 2 {
				t.Fatalf("index after damage: repaired %q, %d new blobs; want the database set aside and 2 blobs rebuilt", sum.Repaired, sum.BlobsNew)
			}
			s, err := storewrite.OpenStore(repo.IndexDir)
			if err != nil {
				t.Fatalf("open rebuilt store: %v", err)
			}
			s.Close()
			if err := store.CheckBadger(db, true); err != nil {
				t.Fatalf("rebuilt database: %v", err)
			}
			if sum := indexRevs(t, r.Dir, nil, "HEAD"); sum.Repaired != "" || sum.BlobsNew != 0 {
				t.Fatalf("second run: repaired %q, %d new blobs", sum.Repaired, sum.BlobsNew)
			}
		})
	}
}

func TestFullCheckFindsAFlippedByteInATableBlock(t *testing.T) {
	r := gittest.New(t)
	r.Commit("init", map[string]string{"calc.go": goFile})
	indexRevs(t, r.Dir, nil, "HEAD")
	repo, _ := gitindex.OpenRepo(r.Dir)
	db := filepath.Join(repo.IndexDir, "db")
	p := sstFiles(t, db)[0]
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	b[10] ^= 0x40 // inside the first data block, which only a full check reads
	os.WriteFile(p, b, 0o644)
	if err := store.CheckBadger(db, true); !errors.Is(err, store.ErrCorrupt) {
		t.Fatalf("full check of a flipped block: %v, want store.ErrCorrupt", err)
	}
}
