package storewrite

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/bcindex/bcindex/store"
)

// TestDamagedLogHeaderIsFound: bytes flipped in the header of a value log
// file make badger.Open refuse the database ("Invalid datakey id"); the
// check every indexing run starts with finds it, so that the database is
// set aside and rebuilt rather than failing every run.
func TestDamagedLogHeaderIsFound(t *testing.T) {
	dir := t.TempDir()
	s, err := OpenStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	b := s.NewBatch()
	if err := b.PutVectorParts("00000001", "vec-x.loc", [][]byte{make([]byte, MinPart)}); err != nil {
		t.Fatal(err)
	}
	if err := b.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "db")
	if err := store.CheckBadger(db, true); err != nil {
		t.Fatalf("sound database: %v", err)
	}
	logs, _ := filepath.Glob(filepath.Join(db, "*.vlog"))
	if len(logs) == 0 {
		t.Fatal("no value log")
	}
	f, err := os.OpenFile(logs[0], os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt([]byte{0x5a, 0x17}, 3); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if _, err := OpenStore(dir); err == nil {
		t.Fatal("badger opened a log with a damaged header; the test no longer shows the failure it guards")
	}
	if err := store.CheckBadger(db, false); !errors.Is(err, store.ErrCorrupt) {
		t.Fatalf("damaged log header: check says %v, want store.ErrCorrupt", err)
	}
	msg, err := SetDamagedAside(dir)
	if err != nil || msg == "" {
		t.Fatalf("set aside: %q %v", msg, err)
	}
	s, err = OpenStore(dir)
	if err != nil {
		t.Fatalf("after setting the database aside: %v", err)
	}
	s.Close()
}
