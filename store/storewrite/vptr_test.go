package storewrite

import (
	"errors"
	"fmt"
	"os"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/dgraph-io/badger/v4"

	"github.com/bcindex/bcindex/segment"
	"github.com/bcindex/bcindex/vector"
)

// putParts writes the vector parts of a segment, rows rows of dimension 16
// whose values start at first, and returns them.
func putParts(t *testing.T, s *Store, seg string, first int) [][]byte {
	t.Helper()
	const dim, rows = 16, 100
	q := make([][]int8, rows)
	scales := make([]float32, rows)
	for i := range q {
		q[i] = make([]int8, dim)
		q[i][i%dim] = int8(first + i%50)
		scales[i] = 0.01
	}
	parts, err := vector.EncodeParts(dim, q, scales, MinPart)
	if err != nil {
		t.Fatal(err)
	}
	b := s.NewBatch()
	if err := b.PutVectorParts(seg, segment.VectorFileName("m"), parts); err != nil {
		t.Fatal(err)
	}
	if err := b.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := s.DB.Sync(); err != nil {
		t.Fatal(err)
	}
	return parts
}

// openTempStore opens a store in a temporary index directory, closed when
// the test ends.
func openTempStore(t *testing.T) (*Store, string) {
	t.Helper()
	indexDir := t.TempDir()
	s, err := OpenStore(indexDir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, indexDir
}

// pointerOf reads the value pointer of a segment's first part.
func pointerOf(t *testing.T, s *Store, seg string, part []byte) (uint32, int64) {
	t.Helper()
	var fid uint32
	var off int64
	err := s.DB.View(func(txn *badger.Txn) error {
		item, err := txn.Get(partKey(seg, segment.VectorFileName("m"), 0))
		if err != nil {
			return err
		}
		if _, _, _, err := valuePointer(reflect.ValueOf(item).Elem()); err != nil {
			return err
		}
		fid, off, err = placeOf(reflect.ValueOf(item).Elem(), part, nil)
		return err
	})
	if err != nil {
		t.Fatalf("value pointer of segment %s (Badger's layout of %s): %v", seg, verifiedBadger, err)
	}
	return fid, off
}

// TestValuePointerLayout guards the reflection into Badger: it fails when
// go.mod moves to another Badger (read its Item and valuePointer in
// iterator.go and structs.go, then update verifiedBadger) and when the
// pinned one's layout does not give the place where the bytes are.
func TestValuePointerLayout(t *testing.T) {
	mod, err := os.ReadFile("../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^\s*github\.com/dgraph-io/badger/v4 (\S+)`).FindSubmatch(mod)
	if m == nil {
		t.Fatal("go.mod requires no github.com/dgraph-io/badger/v4")
	}
	if v := string(m[1]); v != verifiedBadger {
		t.Fatalf("go.mod pins Badger %s; valuePointer reads the layout of %s: check it against the new Item and valuePointer, then update verifiedBadger", v, verifiedBadger)
	}
	s, indexDir := openTempStore(t)
	parts := putParts(t, s, "00000001", 1)
	fid, off := pointerOf(t, s, "00000001", parts[0])
	if err := s.checkPlace(segment.PartLoc{Fid: fid, Off: off}, parts[0]); err != nil {
		t.Fatalf("the value pointer names other bytes: %v", err)
	}
	// The search by bytes, which a build with another layout relies on,
	// finds the same place.
	ffid, foff, err := (&logReader{dir: indexDir}).find(parts[0])
	if err != nil || ffid != fid || foff != off {
		t.Fatalf("found in the log at %d:%d (%v), the value pointer says %d:%d", ffid, foff, err, fid, off)
	}
}

// TestValuePointerRefusesOtherLayouts: fields Badger might rename, retype
// or resize are errLayout, never a place read from the wrong bytes.
func TestValuePointerRefusesOtherLayouts(t *testing.T) {
	tests := []struct {
		name   string
		item   any
		layout bool
	}{
		{"meta renamed", &struct {
			flags byte
			vptr  []byte
		}{2, make([]byte, 12)}, true},
		{"meta wider", &struct {
			meta uint16
			vptr []byte
		}{2, make([]byte, 12)}, true},
		{"vptr of words", &struct {
			meta byte
			vptr []uint32
		}{2, make([]uint32, 3)}, true},
		{"vptr longer", &struct {
			meta byte
			vptr []byte
		}{2, make([]byte, 16)}, true},
		{"value in the tree", &struct {
			meta byte
			vptr []byte
		}{0, nil}, false},
	}
	for _, tt := range tests {
		_, _, _, err := valuePointer(reflect.ValueOf(tt.item).Elem())
		if err == nil || errors.Is(err, errLayout) != tt.layout {
			t.Errorf("%s: %v, want layout error %v", tt.name, err, tt.layout)
		}
	}
}

// TestFindInLogTakesTheNewestCopy: gc rewrites live values at the head of
// the log and the old copies stay until their file goes, so the search by
// bytes must name the newest copy, as the value pointer does.
func TestFindInLogTakesTheNewestCopy(t *testing.T) {
	s, indexDir := openTempStore(t)
	first := putParts(t, s, "00000001", 7)
	putParts(t, s, "00000002", 20) // other bytes in between
	again := putParts(t, s, "00000003", 7)
	if fmt.Sprint(first) != fmt.Sprint(again) {
		t.Fatal("the same rows encoded to other bytes")
	}
	fid1, off1 := pointerOf(t, s, "00000001", first[0])
	fid3, off3 := pointerOf(t, s, "00000003", again[0])
	if fid1 == fid3 && off1 == off3 {
		t.Fatal("two keys' values at one place")
	}
	fid, off, err := (&logReader{dir: indexDir}).find(again[0])
	if err != nil || fid != fid3 || off != off3 {
		t.Fatalf("found at %d:%d (%v), want the newest copy at %d:%d", fid, off, err, fid3, off3)
	}
	if _, _, err := (&logReader{dir: indexDir}).find([]byte("no such part, anywhere in the log")); err == nil {
		t.Fatal("found bytes that were never written")
	}

	// An item of another layout: placeOf falls back to the search by
	// bytes, and says what to do when that fails too.
	other := reflect.ValueOf(&struct{ meta, flags byte }{2, 0}).Elem()
	fid, off, err = placeOf(other, again[0], &logReader{dir: indexDir})
	if err != nil || fid != fid3 || off != off3 {
		t.Fatalf("fallback: %d:%d (%v), want %d:%d", fid, off, err, fid3, off3)
	}
	_, _, err = placeOf(other, []byte("never written"), &logReader{dir: indexDir})
	if !errors.Is(err, errLayout) || !strings.Contains(err.Error(), verifiedBadger) || !strings.Contains(err.Error(), "hint: build bcindex with the Badger version its go.mod pins") {
		t.Fatalf("fallback that finds nothing: %v", err)
	}
}
