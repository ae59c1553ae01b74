package storewrite

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"
)

// levelZeroTables reopens the store and counts its level-0 tables.
func levelZeroTables(t *testing.T, dir string) int {
	t.Helper()
	s, err := OpenStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	n := 0
	for _, ti := range s.DB.Tables() {
		if ti.Level == 0 {
			n++
		}
	}
	return n
}

// TestStoreCompactsAfterLargeSession: a session that wrote more than
// compactAfter bytes leaves no level-0 tables behind for the next session
// to compact; a small session leaves its table in level 0; values survive
// both.
func TestStoreCompactsAfterLargeSession(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(1, 2))
	value := func(i int) []byte {
		v := make([]byte, 64<<10)
		for k := range v {
			v[k] = byte(rng.IntN(256))
		}
		copy(v, fmt.Sprint(i))
		return v
	}
	write := func(from, n int) map[string][]byte {
		s, err := OpenStore(dir)
		if err != nil {
			t.Fatal(err)
		}
		b := s.NewBatch()
		want := map[string][]byte{}
		for i := from; i < from+n; i++ {
			k, v := fmt.Sprintf("v/test/%08d", i), value(i)
			if err := b.Put([]byte(k), v); err != nil {
				t.Fatal(err)
			}
			want[k] = v
		}
		if err := b.Flush(); err != nil {
			t.Fatal(err)
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		return want
	}

	large := write(0, compactAfter/(64<<10)+32)
	if n := levelZeroTables(t, dir); n != 0 {
		t.Fatalf("after a large session: %d level-0 tables, want 0", n)
	}
	small := write(1<<20, 4)
	if n := levelZeroTables(t, dir); n == 0 {
		t.Fatal("a small session compacted level 0")
	}

	s, err := OpenStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, m := range []map[string][]byte{large, small} {
		for k, v := range m {
			got, err := s.Get([]byte(k))
			if err != nil || !bytes.Equal(got, v) {
				t.Fatalf("%s: %d bytes, %v; want %d bytes", k, len(got), err, len(v))
			}
		}
	}
}
