package vector

import (
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"

	"github.com/bits-and-blooms/bitset"
)

// A segment may open a part of fewer than 64 rows ahead of others (the
// last part of another segment's vectors, which it shares): the next part
// starts at the next multiple of 64, the rows between hold nothing, and
// rows mapped onto the parts read and score as in one file.
func TestPartsWithAGap(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 1))
	d := makeData(t, rng, 8, 100, 7) // parts of 64 and 36 rows
	parts, err := encodeParts(d.dim, smallPart, d.rows, d.scales, 0)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "log")
	regs := writeParts(t, path, parts, []int{len(parts[0]), len(parts[1])})
	s, err := OpenRegions([]Region{regs[1], regs[0]}) // 36 rows, a gap of 28, 64 rows
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if s.Stored() != 128 || s.Parts() != 2 {
		t.Fatalf("stored %d in %d parts; want 128 in 2", s.Stored(), s.Parts())
	}
	if err := s.Verify(); err != nil {
		t.Fatal(err)
	}
	for r := 36; r < 64; r++ {
		if q, scale := s.Row(r); q != nil || scale != 0 {
			t.Fatalf("gap row %d reads a vector", r)
		}
	}
	if err := s.MapRows([]int32{0, 40}); err == nil {
		t.Fatal("MapRows mapped a row into the gap")
	}
	rowVec := make([]int32, 100)
	for r := range rowVec {
		if r < 64 {
			rowVec[r] = int32(64 + r)
		} else {
			rowVec[r] = int32(r - 64)
		}
	}
	if err := s.MapRows(rowVec); err != nil {
		t.Fatal(err)
	}
	for r := 0; r < 100; r++ {
		q1, s1 := d.seg.Row(r)
		q2, s2 := s.Row(r)
		if !slices.Equal(q1, q2) || s1 != s2 {
			t.Fatalf("row %d: %v %v, one file has %v %v", r, q2, s2, q1, s1)
		}
	}
	allow := bitset.New(100)
	for i := uint(0); i < 100; i += 3 {
		allow.Set(i)
	}
	for n := 0; n < 20; n++ {
		query := randUnit(rng, 8)
		for _, a := range []*bitset.BitSet{nil, allow} {
			got := hitsOf(s.Search(query, 9, a))
			want := hitsOf(d.seg.Search(query, 9, a))
			if len(want) == 0 || !slices.Equal(got, want) {
				t.Fatalf("query %d: parts with a gap %v, one file %v", n, got, want)
			}
		}
	}
}

// Two segments that open the same region share its mapping, which stays
// while either holds it.
func TestSharedRegionMappedOnce(t *testing.T) {
	d := makeData(t, rand.New(rand.NewPCG(13, 1)), 8, 100, 0)
	parts, err := encodeParts(d.dim, smallPart, d.rows, d.scales, 0)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "log")
	regs := writeParts(t, path, parts, []int{len(parts[0]), len(parts[1])})
	a, err := OpenRegions(regs)
	if err != nil {
		t.Fatal(err)
	}
	b, err := OpenRegions(regs[1:])
	if err != nil {
		t.Fatal(err)
	}
	if &a.parts[1].mapping[0] != &b.parts[0].mapping[0] {
		t.Fatal("one region of one file mapped twice")
	}
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	for r := 0; r < 36; r++ {
		q1, _ := d.seg.Row(64 + r)
		if q2, _ := b.Row(r); !slices.Equal(q1, q2) {
			t.Fatalf("row %d after the other segment closed: %v, want %v", r, q2, q1)
		}
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	maps.Lock()
	n := 0
	for k := range maps.m {
		if k.path == path {
			n++
		}
	}
	maps.Unlock()
	if n != 0 {
		t.Fatalf("%d mappings of the file left after both closed", n)
	}
}
