package segment

import (
	"bytes"
	"crypto/sha1"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// TestContentRoundTrip: texts stored compressed or as they are come back
// byte for byte, in blob-table order whatever order they were added in;
// a blob without text has none; a merge copies the kept ones; a flipped
// byte fails the checks; data past the spill threshold goes through the
// temporary file.
func TestContentRoundTrip(t *testing.T) {
	texts := map[string][]byte{
		"code":  []byte(strings.Repeat("func f() error { return nil }\n", 200)),
		"short": []byte("x"),
		"rand":  []byte("\x8f\x01\x33\xfe\x10\x99\x42\x00\x7f"), // LZ4 saves nothing: stored as is
		"empty": nil,
	}
	var shas [][20]byte
	names := map[[20]byte]string{}
	for name := range texts {
		s := sha1.Sum([]byte(name))
		shas, names[s] = append(shas, s), name
	}
	none := sha1.Sum([]byte("binary, not read"))
	shas = append(shas, none)
	sort.Slice(shas, func(i, j int) bool { return bytes.Compare(shas[i][:], shas[j][:]) < 0 })
	index := func(sha [20]byte) (int, bool) {
		for i, s := range shas {
			if s == sha {
				return i, true
			}
		}
		return 0, false
	}
	dir := t.TempDir()
	var w ContentWriter
	for name, b := range texts {
		if err := w.Add(sha1.Sum([]byte(name)), StoreText(b), len(b)); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(dir, ContentFile)
	if err := w.WriteFile(path, len(shas), index); err != nil {
		t.Fatal(err)
	}
	c, err := OpenContent(path)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Verify(); err != nil {
		t.Fatal(err)
	}
	for b, sha := range shas {
		got, ok, err := c.Text(b, nil)
		want := texts[names[sha]]
		if err != nil || ok != (len(want) > 0) || !bytes.Equal(got, want) {
			t.Errorf("blob %q: %q %v %v, want %q", names[sha], got, ok, err, want)
		}
	}
	// A merge keeps what keep accepts.
	var m ContentWriter
	drop := sha1.Sum([]byte("code"))
	if err := m.Append(c, func(b int) [20]byte { return shas[b] }, func(s [20]byte) bool { return s != drop }); err != nil {
		t.Fatal(err)
	}
	merged := filepath.Join(dir, "merged.bin")
	if err := m.WriteFile(merged, len(shas), index); err != nil {
		t.Fatal(err)
	}
	mc, err := OpenContent(merged)
	if err != nil {
		t.Fatal(err)
	}
	defer mc.Close()
	for b, sha := range shas {
		got, ok, _ := mc.Text(b, nil)
		want := texts[names[sha]]
		if sha == drop {
			want = nil
		}
		if ok != (len(want) > 0) || !bytes.Equal(got, want) {
			t.Errorf("merged blob %q: %q %v", names[sha], got, ok)
		}
	}
	// Damage anywhere is found.
	data, _ := os.ReadFile(path)
	for _, at := range []int{2, 40, 64 + 3, len(data) / 2, len(data) - 2} {
		bad := bytes.Clone(data)
		bad[at] ^= 0x20
		p := filepath.Join(dir, "bad.bin")
		os.WriteFile(p, bad, 0o644)
		bc, err := OpenContent(p)
		if err == nil {
			err = bc.Verify()
			bc.Close()
		}
		if err == nil {
			t.Errorf("byte %d flipped: no error", at)
		}
	}
	// Past spillBytes the data goes through a temporary file.
	big := make([]byte, spillBytes/2+1)
	rng := rand.New(rand.NewPCG(1, 2)) // incompressible: stored as is
	for i := range big {
		big[i] = byte(rng.Uint32())
	}
	var sw ContentWriter
	sw.TempDir = dir
	a, b := sha1.Sum([]byte("a")), sha1.Sum([]byte("b"))
	for _, s := range [][20]byte{a, b} {
		if err := sw.Add(s, StoreText(big), len(big)); err != nil {
			t.Fatal(err)
		}
	}
	if sw.spill == nil {
		t.Fatal("no spill past the threshold")
	}
	two := [][20]byte{a, b}
	sort.Slice(two, func(i, j int) bool { return bytes.Compare(two[i][:], two[j][:]) < 0 })
	sp := filepath.Join(dir, "spilled.bin")
	if err := sw.WriteFile(sp, 2, func(s [20]byte) (int, bool) {
		if s == two[0] {
			return 0, true
		}
		return 1, true
	}); err != nil {
		t.Fatal(err)
	}
	sc, err := OpenContent(sp)
	if err != nil {
		t.Fatal(err)
	}
	defer sc.Close()
	for i := 0; i < 2; i++ {
		if got, ok, err := sc.Text(i, nil); !ok || err != nil || !bytes.Equal(got, big) {
			t.Fatalf("spilled blob %d: %v %v", i, ok, err)
		}
	}
}
