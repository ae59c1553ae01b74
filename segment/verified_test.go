package segment

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// segmentFiles writes the three files of a segment directory.
func segmentFiles(t testing.TB) (string, []string) {
	dir := t.TempDir()
	names := []string{"chunks.bin", "lex.bin", "vec-model.bin"}
	for _, n := range names {
		if err := os.WriteFile(filepath.Join(dir, n), make([]byte, 4096), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir, names
}

// TestStampsFollowFileVersions: a file that passed is not verified again
// until it is written to; the record survives a reload.
func TestStampsFollowFileVersions(t *testing.T) {
	dir, names := segmentFiles(t)
	s := loadStamps(dir)
	for _, n := range names {
		if s.verified(n) {
			t.Fatalf("%s verified before it passed", n)
		}
		s.passed(n)
	}
	s.save()
	s = loadStamps(dir)
	for _, n := range names {
		if !s.verified(n) {
			t.Fatalf("%s not verified after it passed and the record was reloaded", n)
		}
	}
	// A write (here a flipped byte, with a new modification time) makes
	// another version of the file, which must be verified again.
	p := filepath.Join(dir, names[1])
	b, _ := os.ReadFile(p)
	b[100] ^= 1
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(time.Second)
	os.Chtimes(p, later, later)
	if s = loadStamps(dir); s.verified(names[1]) || !s.verified(names[0]) {
		t.Fatalf("after a write: %s verified %v, %s verified %v", names[1], s.verified(names[1]), names[0], s.verified(names[0]))
	}
}

// BenchmarkWarmVerification is what checksums add to a warm query per
// segment: reading the segment's record of verified versions and one stat
// per mapped file (the bodies passed before and are not read again). The
// bench report sets it against a whole query.
func BenchmarkWarmVerification(b *testing.B) {
	dir, names := segmentFiles(b)
	s := loadStamps(dir)
	for _, n := range names {
		s.passed(n)
	}
	s.save()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s := loadStamps(dir)
		for _, n := range names {
			if !s.verified(n) {
				b.Fatal("not verified")
			}
		}
		s.save()
	}
}
