package storewrite

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
)

// refreshPages rewrites a region's pages in place: the file's bytes, in
// the region and around it, stay what they were.
func TestRefreshPagesKeepsTheBytes(t *testing.T) {
	p := filepath.Join(t.TempDir(), "000001.vlog")
	b := make([]byte, 300_000)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range b {
		b[i] = byte(rng.UintN(256))
	}
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, r := range [][2]int64{{100_003, 70_001}, {0, 4096}, {299_000, 1000}, {299_999, 1}} {
		if err := refreshPages(p, r[0], r[1]); err != nil {
			t.Fatalf("region %v: %v", r, err)
		}
	}
	got, err := os.ReadFile(p)
	if err != nil || !bytes.Equal(got, b) {
		t.Fatalf("file changed (%d bytes, %v)", len(got), err)
	}
}
