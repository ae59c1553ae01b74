package vector

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestSelectRows: the selected rows of a part read back with their
// vectors, scales and sign bits, and a part with a flipped body byte is
// refused.
func TestSelectRows(t *testing.T) {
	const dim = 8
	q := make([][]int8, 5)
	scales := make([]float32, 5)
	for i := range q {
		q[i] = make([]int8, dim)
		q[i][i] = int8(10 + i)
		q[i][7-i/2] = -int8(3 + i) // sign bits that differ row by row
		scales[i] = float32(i+1) / 10
	}
	q[2], scales[2] = nil, 0 // a row without vector
	parts, err := EncodeParts(dim, q, scales, 4096)
	if err != nil {
		t.Fatal(err)
	}
	keep := []int{1, 2, 4}
	b, err := SelectRows(parts[0], keep, 4096)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "part")
	if err := os.WriteFile(path, b[:EncodedSize(dim, len(keep))], 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Verify(); err != nil || s.Stored() != len(keep) || len(b) != 4096 {
		t.Fatalf("selected part: %d rows, %d bytes, verify %v", s.Stored(), len(b), err)
	}
	for i, r := range keep {
		got, scale := s.Row(i)
		if !slices.Equal(got, q[r]) || scale != scales[r] {
			t.Errorf("row %d (was %d): %v %v, want %v %v", i, r, got, scale, q[r], scales[r])
		}
	}
	sk, err := s.parts[0].sketchOf()
	if err != nil {
		t.Fatal(err)
	}
	want := make([]uint64, len(keep))
	signRowsGo(s.parts[0].vecs, dim, 0, len(keep), want)
	if !bytes.Equal(sk.bits, wordsLE(want)) || want[0] == 0 {
		t.Errorf("selected part's sign bits %x, want %x", sk.bits, want)
	}
	parts[0][headerSize+3] ^= 1
	if _, err := SelectRows(parts[0], keep, 0); err == nil {
		t.Error("a damaged part was copied")
	}
	if _, err := SelectRows(parts[0][:headerSize], keep, 0); err == nil {
		t.Error("a truncated part was copied")
	}
}
