package storewrite

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/bcindex/bcindex/internal/testkit/memtest"
	"golang.org/x/sys/unix"
)

// mapFile maps a new file of size bytes, shared or private, writable.
func mapFile(t *testing.T, path string, size int, flags int) []byte {
	t.Helper()
	if err := os.WriteFile(path, make([]byte, size), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	b, err := unix.Mmap(int(f.Fd()), 0, size, unix.PROT_READ|unix.PROT_WRITE, flags)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { unix.Munmap(b) })
	return b
}

// dropMappedPages takes the pages of the shared mappings of files under a
// directory out of the process's resident set, written pages included,
// and the bytes stay, in the file and through the mapping. A private
// mapping (whose written pages exist nowhere else) and a mapping of a
// file outside the directory keep their pages.
func TestDropMappedPagesKeepsTheBytes(t *testing.T) {
	root := t.TempDir()
	dir, beside := filepath.Join(root, "db"), filepath.Join(root, "dbx")
	for _, d := range []string{dir, beside} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	const size = 64 << 12
	shared := mapFile(t, filepath.Join(dir, "000001.vlog"), size, unix.MAP_SHARED)
	private := mapFile(t, filepath.Join(dir, "000002.vlog"), size, unix.MAP_PRIVATE)
	outside := mapFile(t, filepath.Join(beside, "000001.vlog"), size, unix.MAP_SHARED)
	for i := range size {
		shared[i], private[i], outside[i] = byte(i*7), byte(i*3), byte(i*5)
	}
	want := bytes.Clone(shared)
	for _, b := range [][]byte{shared, private, outside} {
		if kb := memtest.ResidentKB(t, b); kb != size>>10 {
			t.Fatalf("setup: %d kB of a mapping of %d resident", kb, size>>10)
		}
	}

	dropMappedPages(dir)
	if kb := memtest.ResidentKB(t, shared); kb != 0 {
		t.Errorf("%d kB of the shared mapping still resident", kb)
	}
	if kb := memtest.ResidentKB(t, private); kb != size>>10 {
		t.Errorf("%d kB of the private mapping resident, were %d", kb, size>>10)
	}
	if kb := memtest.ResidentKB(t, outside); kb != size>>10 {
		t.Errorf("%d kB of the mapping outside the directory resident, were %d", kb, size>>10)
	}
	if !bytes.Equal(shared, want) {
		t.Errorf("the shared mapping reads other bytes")
	}
	if got, err := os.ReadFile(filepath.Join(dir, "000001.vlog")); err != nil || !bytes.Equal(got, want) {
		t.Errorf("the file holds other bytes (%v)", err)
	}
	for i := range size {
		if private[i] != byte(i*3) || outside[i] != byte(i*5) {
			t.Fatalf("byte %d of the other mappings changed", i)
		}
	}
}
