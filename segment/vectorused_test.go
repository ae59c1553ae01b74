package segment

import "testing"

// TestVectorUsed: a merge reads a row's vector only when the segment will
// store it: rows without text of their own and later copies of a content
// whose first copy has a vector are left out; a copy whose first copy has
// none, and rows of a writer whose vectors are not one per row, are read.
func TestVectorUsed(t *testing.T) {
	v := &VectorRows{Dim: 2, Q: [][]int8{{1, 2}, nil, {3, 4}}, Scales: []float32{1, 0, 1}}
	cases := []struct {
		first, row int
		want       bool
	}{
		{-1, 3, false}, // no text of its own
		{3, 3, true},   // first copy
		{0, 3, false},  // its first copy has a vector
		{1, 3, true},   // its first copy has none
		{0, 4, true},   // v is not one vector per row added
	}
	for _, c := range cases {
		if got := vectorUsed(v, c.first, c.row); got != c.want {
			t.Errorf("vectorUsed(first %d, row %d) = %v, want %v", c.first, c.row, got, c.want)
		}
	}
}
