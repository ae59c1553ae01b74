package vector

import (
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/bits-and-blooms/bitset"
)

// smallPart is the rows of the parts the tests cut, so that a few hundred
// rows span several parts.
const smallPart = 64

// writeParts writes parts back to back into one file, each behind some
// bytes of garbage so that none starts on a page or word boundary, and
// returns their regions.
func writeParts(t *testing.T, path string, parts [][]byte, trim []int) []Region {
	t.Helper()
	var file []byte
	var regions []Region
	for i, p := range parts {
		file = append(file, make([]byte, 4099+i)...)
		for j := len(file) - 4099 - i; j < len(file); j++ {
			file[j] = byte(j * 7)
		}
		regions = append(regions, Region{Path: path, Off: int64(len(file)), Len: int64(trim[i])})
		file = append(file, p...)
	}
	if err := os.WriteFile(path, file, 0o644); err != nil {
		t.Fatal(err)
	}
	return regions
}

// openParts encodes the test data's rows as parts of smallPart rows
// (padded to 700 bytes) in one file and opens them.
func openParts(t *testing.T, d *testData) (*Segment, string, []Region) {
	t.Helper()
	parts, err := encodeParts(d.dim, smallPart, d.rows, d.scales, 700)
	if err != nil {
		t.Fatal(err)
	}
	trim := make([]int, len(parts))
	for i, p := range parts {
		h, err := parseHeader(p)
		if err != nil {
			t.Fatal(err)
		}
		trim[i] = int(h.size)
	}
	path := filepath.Join(t.TempDir(), "log")
	regions := writeParts(t, path, parts, trim)
	s, err := OpenRegions(regions)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, path, regions
}

func TestPartsSearchLikeOneFile(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 1))
	d := makeData(t, rng, 8, 300, 9) // parts of 64, 64, 64, 64, 44 rows
	s, _, _ := openParts(t, d)
	if s.Parts() != 5 || s.Len() != 300 || s.Dim() != 8 {
		t.Fatalf("parts %d, rows %d, dim %d; want 5, 300, 8", s.Parts(), s.Len(), s.Dim())
	}
	if err := s.Verify(); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < d.seg.Len(); i++ {
		q1, s1 := d.seg.Row(i)
		q2, s2 := s.Row(i)
		if !slices.Equal(q1, q2) || s1 != s2 {
			t.Fatalf("row %d: %v %v, one file has %v %v", i, q2, s2, q1, s1)
		}
	}
	allow := bitset.New(300)
	for i := uint(0); i < 300; i += 3 {
		allow.Set(i)
	}
	withKernels(t, func(t *testing.T, dot kernel) {
		for n := 0; n < 20; n++ {
			query := randUnit(rng, 8)
			for _, a := range []*bitset.BitSet{nil, allow} {
				got := hitsOf(s.search(dot, query, 17, a))
				want := hitsOf(d.seg.search(dot, query, 17, a))
				if !slices.Equal(got, want) {
					t.Fatalf("query %d: parts %v, one file %v", n, got, want)
				}
			}
		}
	})
}

func TestPartsVerifyFindsAFlippedByte(t *testing.T) {
	d := makeData(t, rand.New(rand.NewPCG(3, 1)), 8, 200, 0)
	s, path, regions := openParts(t, d)
	s.Close()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	b[regions[1].Off+headerSize+3] ^= 0x10
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	s2, err := OpenRegions(regions)
	if err != nil {
		t.Fatalf("open checks headers only, yet: %v", err)
	}
	defer s2.Close()
	if err := s2.VerifyPart(0); err != nil {
		t.Fatalf("part 0 is sound: %v", err)
	}
	if err := s2.VerifyPart(1); err == nil {
		t.Fatal("VerifyPart passed a flipped vector byte")
	}
	if err := s2.Verify(); err == nil {
		t.Fatal("Verify passed a flipped vector byte")
	}
}

// A file truncated under a mapping (as a store's log is when it is
// rewritten) makes reads fault: Search and Verify return ErrFault and Row
// no vector, and the process lives on.
func TestPartsTruncatedUnderTheMapping(t *testing.T) {
	d := makeData(t, rand.New(rand.NewPCG(5, 1)), 8, 300, 0)
	s, path, _ := openParts(t, d)
	if hits := hitsOf(s.Search(d.floats[10], 1, nil)); len(hits) != 1 || hits[0].Row != 10 {
		t.Fatalf("before truncation: %v", hits)
	}
	if err := os.Truncate(path, 0); err != nil {
		t.Fatal(err)
	}
	if hits, err := s.Search(d.floats[10], 1, nil); !errors.Is(err, ErrFault) || hits != nil {
		t.Fatalf("Search after truncation = %v, %v; want ErrFault", hits, err)
	}
	if err := s.Verify(); !errors.Is(err, ErrFault) {
		t.Fatalf("Verify after truncation = %v; want ErrFault", err)
	}
	if q, _ := s.Row(250); q != nil {
		t.Fatalf("Row after truncation = %v; want none", q)
	}
}

func TestOpenRegionsRefuses(t *testing.T) {
	d := makeData(t, rand.New(rand.NewPCG(9, 1)), 8, 100, 0)
	parts, err := encodeParts(d.dim, smallPart, d.rows, d.scales, 0)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "log")
	trim := []int{len(parts[0]), len(parts[1])}
	regs := writeParts(t, path, parts, trim)
	for name, bad := range map[string][]Region{
		"past the end": {{Path: path, Off: regs[1].Off + 8, Len: regs[1].Len}},
		"short":        {{Path: path, Off: regs[0].Off, Len: regs[0].Len - 1}},
		"not a part":   {{Path: path, Off: regs[0].Off + 1, Len: regs[0].Len}},
		"missing file": {{Path: path + "-gone", Off: 0, Len: 100}},
		"no parts":     nil,
	} {
		if s, err := OpenRegions(bad); err == nil {
			s.Close()
			t.Errorf("%s: OpenRegions succeeded", name)
		}
	}
}
