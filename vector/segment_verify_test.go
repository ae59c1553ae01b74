package vector

import (
	"os"
	"path/filepath"
	"testing"
)

func TestVerifyFindsAFlippedVectorByte(t *testing.T) {
	p := filepath.Join(t.TempDir(), "v.bin")
	var rows [][]int8
	var scales []float32
	for i := 0; i < 10; i++ {
		rows = append(rows, []int8{int8(i), 2, 3, 4})
		scales = append(scales, 0.5)
	}
	writeSegment(t, p, 4, rows, scales)
	s, err := Open(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Verify(); err != nil {
		t.Fatalf("sound segment: %v", err)
	}
	s.Close()
	b, _ := os.ReadFile(p)
	b[headerSize+5] ^= 1
	os.WriteFile(p, b, 0o644)
	if s, err = Open(p); err != nil {
		t.Fatalf("open checks the header only, yet: %v", err)
	}
	defer s.Close()
	if err := s.Verify(); err == nil {
		t.Fatal("Verify passed a flipped vector byte")
	}
}
