package vector

import (
	"encoding/binary"
	"errors"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/bcindex/bcindex/internal/checksum"
)

// writeSegment writes rows (nil = no vector) with their scales as one
// segment file, a single part of any number of rows.
func writeSegment(t testing.TB, path string, dim int, rows [][]int8, scales []float32) {
	t.Helper()
	b, err := encodePart(dim, rows, scales, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func openSegment(t testing.TB, path string) *Segment {
	t.Helper()
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestSegmentRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		name string
		dim  int
		rows int
	}{
		{"empty", 4, 0},
		{"one", 1, 1},
		{"odd", 7, 13},
		{"256", 256, 100},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "seg")
			rows := make([][]int8, tc.rows)
			scales := make([]float32, tc.rows)
			for i := range rows {
				if i%5 == 3 {
					scales[i] = 0.7 // ignored: no vector
					continue
				}
				rows[i] = make([]int8, tc.dim)
				for j := range rows[i] {
					rows[i][j] = int8(i*31 + j*7)
				}
				scales[i] = float32(i+1) / 1000
			}
			writeSegment(t, path, tc.dim, rows, scales)
			if _, err := os.Stat(path + ".tmp"); !os.IsNotExist(err) {
				t.Fatalf("temporary file left behind: %v", err)
			}
			s := openSegment(t, path)
			if s.Len() != tc.rows || s.Dim() != tc.dim {
				t.Fatalf("Len, Dim = %d, %d; want %d, %d", s.Len(), s.Dim(), tc.rows, tc.dim)
			}
			for i := range rows {
				want := scales[i]
				if rows[i] == nil {
					want = 0
				}
				if s.parts[0].scales[i] != want {
					t.Fatalf("row %d scale %v, want %v", i, s.parts[0].scales[i], want)
				}
				for j := 0; j < tc.dim; j++ {
					var w int8
					if rows[i] != nil {
						w = rows[i][j]
					}
					if g := s.parts[0].vecs[i*tc.dim+j]; g != w {
						t.Fatalf("row %d[%d] = %d, want %d", i, j, g, w)
					}
				}
			}
			// Header fields and body checksum.
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			h, err := parseHeader(b)
			if err != nil {
				t.Fatal(err)
			}
			if got := checksum.Sum(b[headerSize:]); got != h.bodyCRC {
				t.Fatalf("body CRC %08x, header says %08x", got, h.bodyCRC)
			}
			if h.scaleOff%blockAlign != 0 || h.vecOff%blockAlign != 0 {
				t.Fatalf("blocks not aligned: %d, %d", h.vecOff, h.scaleOff)
			}
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			if err := s.Close(); err != nil {
				t.Fatalf("second Close: %v", err)
			}
			if hits := hitsOf(s.Search(make([]float32, tc.dim), 1, nil)); hits != nil {
				t.Fatalf("Search after Close = %v", hits)
			}
		})
	}
}

// TestEncodeErrors: a dimension out of range, a row of another dimension
// and a scale that is not finite and non-negative are refused.
func TestEncodeErrors(t *testing.T) {
	for _, dim := range []int{0, maxDim + 1} {
		if _, err := EncodeParts(dim, nil, nil, 0); err == nil || !strings.Contains(err.Error(), "out of range") {
			t.Fatalf("dimension %d: err = %v", dim, err)
		}
	}
	if _, err := EncodeParts(4, [][]int8{{1, 2, 3, 4}}, nil, 0); err == nil {
		t.Fatal("one row and no scale encoded")
	}
	for _, tc := range []struct {
		name  string
		q     []int8
		scale float32
		want  string
	}{
		{"short row", []int8{1, 2, 3}, 1, "dimension 3"},
		{"long row", []int8{1, 2, 3, 4, 5}, 1, "dimension 5"},
		{"nan scale", []int8{1, 2, 3, 4}, float32(math.NaN()), "invalid scale"},
		{"negative scale", []int8{1, 2, 3, 4}, -1, "invalid scale"},
		{"inf scale", []int8{1, 2, 3, 4}, float32(math.Inf(1)), "invalid scale"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := EncodeParts(4, [][]int8{{1, 2, 3, 4}, tc.q}, []float32{1, tc.scale}, 0)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
		})
	}
}

func TestOpenCorrupt(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good")
	writeSegment(t, good, 8, [][]int8{{1, 2, 3, 4, 5, 6, 7, 8}, nil, {-1, -2, -3, -4, -5, -6, -7, -8}}, []float32{1, 0, 2})
	orig, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	// edit returns a copy of the good file changed by f; if fixCRC, the
	// header checksum is recomputed so that deeper checks are reached.
	edit := func(fixCRC bool, f func(b []byte) []byte) []byte {
		b := f(append([]byte(nil), orig...))
		if fixCRC && len(b) >= headerSize {
			binary.LittleEndian.PutUint32(b[60:], checksum.Sum(b[:60]))
		}
		return b
	}
	tests := []struct {
		name string
		data []byte
		want string
	}{
		{"empty", nil, "truncated"},
		{"partial header", orig[:10], "truncated"},
		{"header only", orig[:headerSize], "truncated"},
		{"missing last byte", orig[:len(orig)-1], "truncated"},
		{"missing sign bits", orig[:len(orig)-24], "truncated"},
		{"trailing byte", append(append([]byte(nil), orig...), 0), "trailing"},
		{"bad magic", edit(false, func(b []byte) []byte { b[0] = 'X'; return b }), "bad magic"},
		{"header bit flip", edit(false, func(b []byte) []byte { b[17] ^= 1; return b }), "checksum"},
		{"checksum flip", edit(false, func(b []byte) []byte { b[61] ^= 1; return b }), "checksum"},
		{"version 1 (no sign bits)", edit(true, func(b []byte) []byte { b[6] = 1; return b }), "version 1"},
		{"version 3", edit(true, func(b []byte) []byte { b[6] = 3; return b }), "version 3"},
		{"dim 0", edit(true, func(b []byte) []byte { b[8] = 0; return b }), "dimension 0"},
		{"dim too large", edit(true, func(b []byte) []byte { b[11] = 1; return b }), "invalid dimension"},
		{"rows too large", edit(true, func(b []byte) []byte { b[23] = 0x80; return b }), "row count"},
		{"more rows", edit(true, func(b []byte) []byte { b[16] = 4; return b }), "inconsistent layout"},
		{"scale offset", edit(true, func(b []byte) []byte { b[32] += 64; return b }), "inconsistent layout"},
		{"sign offset", edit(true, func(b []byte) []byte { b[52] += 64; return b }), "inconsistent layout"},
		{"text", []byte(strings.Repeat("not a segment\n", 10)), "bad magic"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "_"))
			if err := os.WriteFile(path, tc.data, 0o644); err != nil {
				t.Fatal(err)
			}
			s, err := Open(path)
			if err == nil {
				s.Close()
				t.Fatal("Open succeeded")
			}
			if !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), path) {
				t.Fatalf("Open err = %q, want it to mention %q and the path", err, tc.want)
			}
		})
	}
	t.Run("missing", func(t *testing.T) {
		if _, err := Open(filepath.Join(dir, "nope")); !errors.Is(err, fs.ErrNotExist) {
			t.Fatalf("Open err = %v, want not-exist", err)
		}
	})
	t.Run("directory", func(t *testing.T) {
		if _, err := Open(dir); err == nil || !strings.Contains(err.Error(), "regular") {
			t.Fatalf("Open err = %v", err)
		}
	})
	t.Run("corrupt body still searches", func(t *testing.T) {
		// The body is not checksummed at Open; garbage scales (NaN, Inf,
		// negative) must simply not match, never crash or poison results.
		b := edit(false, func(b []byte) []byte {
			scaleOff := layout(8, 3).scaleOff
			binary.LittleEndian.PutUint32(b[scaleOff:], math.Float32bits(float32(math.NaN())))
			binary.LittleEndian.PutUint32(b[scaleOff+4:], math.Float32bits(float32(math.Inf(1))))
			binary.LittleEndian.PutUint32(b[scaleOff+8:], math.Float32bits(-1))
			return b
		})
		path := filepath.Join(dir, "body")
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		s := openSegment(t, path)
		if hits := hitsOf(s.Search([]float32{1, 0, 0, 0, 0, 0, 0, 0}, 10, nil)); hits != nil {
			t.Fatalf("hits = %v, want none", hits)
		}
		for i := range 3 {
			if q, scale := s.Row(i); q != nil || scale != 0 {
				t.Fatalf("Row(%d) = %v, %v; want no vector", i, q, scale)
			}
		}
	})
}

func TestRow(t *testing.T) {
	path := filepath.Join(t.TempDir(), "seg")
	writeSegment(t, path, 3, [][]int8{{1, -2, 3}, nil, {-127, 0, 127}, {4, 5, 6}}, []float32{0.5, 0.9, 2, 0})
	s := openSegment(t, path)
	for _, tc := range []struct {
		row   int
		q     []int8
		scale float32
	}{
		{0, []int8{1, -2, 3}, 0.5},
		{1, nil, 0}, // added without vector
		{2, []int8{-127, 0, 127}, 2},
		{3, nil, 0}, // scale 0
		{-1, nil, 0},
		{4, nil, 0},
	} {
		q, scale := s.Row(tc.row)
		if !slices.Equal(q, tc.q) || (q == nil) != (tc.q == nil) || scale != tc.scale {
			t.Errorf("Row(%d) = %v, %v; want %v, %v", tc.row, q, scale, tc.q, tc.scale)
		}
	}
	// The copy does not alias the mapping.
	q, _ := s.Row(0)
	q[0] = 99
	if q2, _ := s.Row(0); q2[0] != 1 {
		t.Fatal("Row returned memory aliasing the segment")
	}
	s.Close()
	if q, scale := s.Row(0); q != nil || scale != 0 {
		t.Fatalf("Row after Close = %v, %v", q, scale)
	}
}

// hitsOf returns a search's hits and panics on its error, which no test
// that uses it expects.
func hitsOf(hits []Hit, err error) []Hit {
	if err != nil {
		panic(err)
	}
	return hits
}
