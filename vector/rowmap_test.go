package vector

import (
	"math/rand/v2"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/bits-and-blooms/bitset"
)

// TestMappedRowsSearchAsCopies: a segment storing each distinct vector
// once, its rows mapped to them, answers Search, Row and Len as a segment
// holding every row's vector does, with and without an allow set, and
// with rows that share a vector tied at the cut, whether the allow set
// changes from one search to the next or not.
func TestMappedRowsSearchAsCopies(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const dim, distinct, rows = 32, 40, 300
	stored := make([][]int8, distinct)
	scales := make([]float32, distinct)
	for i := range stored {
		stored[i] = make([]int8, dim)
		for d := range stored[i] {
			stored[i][d] = int8(rng.IntN(255) - 127)
		}
		scales[i] = 0.001 + rng.Float32()/100
	}
	rowVec := make([]int32, rows)
	full := make([][]int8, rows)
	fullScales := make([]float32, rows)
	for r := range rowVec {
		rowVec[r] = int32(rng.IntN(distinct+3)) - 3 // some rows without vector
		if rowVec[r] < 0 {
			rowVec[r] = -1
			full[r] = make([]int8, dim)
			continue
		}
		full[r], fullScales[r] = stored[rowVec[r]], scales[rowVec[r]]
	}
	dir := t.TempDir()
	writeSegment(t, filepath.Join(dir, "stored"), dim, stored, scales)
	writeSegment(t, filepath.Join(dir, "full"), dim, full, fullScales)
	mapped, want := openSegment(t, filepath.Join(dir, "stored")), openSegment(t, filepath.Join(dir, "full"))
	if err := mapped.MapRows(rowVec); err != nil {
		t.Fatal(err)
	}
	if mapped.Len() != rows || mapped.Stored() != distinct {
		t.Fatalf("mapped segment: %d rows, %d stored", mapped.Len(), mapped.Stored())
	}
	for r := 0; r < rows; r++ {
		q1, s1 := mapped.Row(r)
		q2, s2 := want.Row(r)
		if !slices.Equal(q1, q2) || s1 != s2 {
			t.Fatalf("row %d: %v %v, want %v %v", r, q1, s1, q2, s2)
		}
	}
	var allow *bitset.BitSet
	for trial := 0; trial < 40; trial++ {
		query := make([]float32, dim)
		for d := range query {
			query[d] = rng.Float32()*2 - 1
		}
		// The segment keeps the stored rows of the last allow set it
		// saw: the trials change it, keep it, change it in place, and
		// cut it short of the rows.
		switch trial % 5 {
		case 0:
			allow = nil
		case 1:
			allow = bitset.New(rows)
			for r := 0; r < rows; r++ {
				if rng.IntN(3) == 0 {
					allow.Set(uint(r))
				}
			}
		case 2:
			for range 5 {
				allow.Flip(uint(rng.IntN(rows)))
			}
		case 3:
			allow = bitset.New(rows)
			allow.FlipRange(0, rows)
		case 4:
			allow = bitset.New(rows - 37)
			allow.FlipRange(0, rows-37)
			allow.Clear(uint(rng.IntN(rows - 37)))
		}
		for _, k := range []int{1, 7, 50, 1000} {
			got, err := mapped.Search(query, k, allow)
			if err != nil {
				t.Fatal(err)
			}
			if exp := hitsOf(want.Search(query, k, allow)); !slices.Equal(got, exp) {
				t.Fatalf("trial %d, k %d: mapped search\n%v\nwant\n%v", trial, k, got, exp)
			}
		}
	}
	// Searches at once with different allow sets each get their own rows
	// (go test -race checks the kept stored rows are shared safely).
	query := make([]float32, dim)
	for d := range query {
		query[d] = rng.Float32()*2 - 1
	}
	some := bitset.New(rows)
	for r := 0; r < rows; r += 2 {
		some.Set(uint(r))
	}
	sets := []*bitset.BitSet{nil, some}
	var exp [2][]Hit
	for i, a := range sets {
		exp[i] = hitsOf(want.Search(query, 20, a))
	}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range 50 {
				j := (g + i) % 2
				if got := hitsOf(mapped.Search(query, 20, sets[j])); !slices.Equal(got, exp[j]) {
					t.Errorf("concurrent search with allow set %d:\n%v\nwant\n%v", j, got, exp[j])
					return
				}
			}
		})
	}
	wg.Wait()
	if err := mapped.MapRows([]int32{distinct}); err == nil {
		t.Error("a row mapped past the stored rows was accepted")
	}
}
