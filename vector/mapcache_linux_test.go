package vector

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/bcindex/bcindex/internal/testkit/memtest"
)

// TestReleaseDropsPagesOfHeldMapping: a segment closing its hold on a
// mapping another still holds takes the pages it read out of the resident
// set, and the other holder reads the same bytes after.
func TestReleaseDropsPagesOfHeldMapping(t *testing.T) {
	path := filepath.Join(t.TempDir(), "part")
	want := bytes.Repeat([]byte("0123456789abcdef"), 1<<16) // 1 MB
	if err := os.WriteFile(path, want, 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	a, _, err := acquire(f, path, fi, 0, len(want))
	if err != nil {
		t.Fatal(err)
	}
	b, _, err := acquire(f, path, fi, 0, len(want))
	if err != nil {
		t.Fatal(err)
	}
	if &a[0] != &b[0] {
		t.Fatal("the same region mapped twice")
	}
	if !bytes.Equal(b, want) {
		t.Fatal("mapping reads other bytes")
	}
	if kb := memtest.ResidentKB(t, a); kb < len(want)/1024 {
		t.Fatalf("%d KB resident after reading %d KB", kb, len(want)/1024)
	}
	if err := release(b); err != nil {
		t.Fatal(err)
	}
	if kb := memtest.ResidentKB(t, a); kb != 0 {
		t.Fatalf("%d KB resident after the reader released the mapping", kb)
	}
	if !bytes.Equal(a, want) {
		t.Fatal("the remaining holder reads other bytes after the release")
	}
	if err := release(a); err != nil {
		t.Fatal(err)
	}
}
