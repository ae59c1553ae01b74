package lexical

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func validFile(t *testing.T) []byte {
	t.Helper()
	w, _ := randomDocs(rand.New(rand.NewPCG(7, 7)), 50, 40, 20)
	path := filepath.Join(t.TempDir(), "lex.idx")
	if err := w.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// openBytes writes data to a file and opens it.
func openBytes(t *testing.T, data []byte) (*Index, error) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "lex.idx")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return Open(path)
}

// exercise reads everything through the public API; it must not panic.
func exercise(ix *Index) error {
	for i := 0; i < ix.Terms(); i++ {
		it := ix.Iter(string(ix.term(i)))
		for it.Next() {
			ix.DocLen(it.Row())
		}
		if it.Err() != nil {
			return it.Err()
		}
	}
	collect(ix.Postings("w0"))
	return ix.Verify()
}

// blocksOf returns the number of dictionary blocks of a valid file.
func blocksOf(b []byte) int {
	terms, bsize := binary.LittleEndian.Uint64(b[16:]), uint64(b[7])
	return int((terms + bsize - 1) / bsize)
}

func TestOpenErrors(t *testing.T) {
	good := validFile(t)
	mod := func(f func(b []byte) []byte) []byte { return f(bytes.Clone(good)) }
	put64 := func(off int, v uint64) []byte {
		return mod(func(b []byte) []byte { binary.LittleEndian.PutUint64(b[off:], v); return b })
	}
	tests := []struct {
		name string
		data []byte
		want string
	}{
		{"empty file", nil, "shorter than"},
		{"short header", good[:headerSize-1], "shorter than"},
		{"header only", good[:headerSize], "truncated"},
		{"truncated by one", good[:len(good)-1], "truncated"},
		{"truncated half", good[:len(good)/2], "truncated"},
		{"trailing data", append(bytes.Clone(good), 0), "trailing data"},
		{"bad magic", mod(func(b []byte) []byte { copy(b, "NOPE!"); return b }), "bad magic"},
		{"not an index", []byte(strings.Repeat("package main\n", 10)), "bad magic"},
		{"future version", mod(func(b []byte) []byte { b[5] = 99; return b }), "unsupported version"},
		{"bad width", mod(func(b []byte) []byte { b[6] = 3; return b }), "width"},
		{"reserved", mod(func(b []byte) []byte { b[60] = 1; return b }), "reserved"},
		{"huge rows", put64(8, 1<<62), "out of range"},
		{"huge terms", put64(16, 1<<40), "out of range"},
		{"huge postings", put64(40, 1<<63), "out of range"},
		{"postings past the end", put64(40, 1<<40), "truncated"},
		{"rows off by one", put64(8, binary.LittleEndian.Uint64(good[8:])+1), "truncated"},
		{"terms off by a block", put64(16, binary.LittleEndian.Uint64(good[16:])-blockTerms), "trailing data"},
		{"terms off by a block up", put64(16, binary.LittleEndian.Uint64(good[16:])+blockTerms), "truncated"},
		{"block size 0", mod(func(b []byte) []byte { b[7] = 0; return b }), "block size"},
		{"other block size", mod(func(b []byte) []byte { b[7] = 1; return b }), "truncated"},
		{"first block", mod(func(b []byte) []byte { b[headerSize+16]++; return b }), "offset 0"},
		{"sentinel key", mod(func(b []byte) []byte {
			b[headerSize+blocksOf(b)*blockEntrySize]++
			return b
		}), "sentinel"},
		{"sentinel postings offset", mod(func(b []byte) []byte {
			b[headerSize+blocksOf(b)*blockEntrySize+8]++
			return b
		}), "sentinel"},
		{"sentinel dictionary offset", mod(func(b []byte) []byte {
			b[headerSize+blocksOf(b)*blockEntrySize+16]++
			return b
		}), "sentinel"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ix, err := openBytes(t, tt.data)
			if err == nil {
				ix.Close()
				t.Fatal("Open succeeded")
			}
			if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Open error %q, want ErrCorrupt mentioning %q", err, tt.want)
			}
		})
	}
	if _, err := Open(filepath.Join(t.TempDir(), "missing")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("Open(missing) = %v, want ErrNotExist", err)
	}
}

// TestCorruptBody flips bytes after the header: Open may accept the file,
// but reading it must never panic and Verify must report the damage.
func TestCorruptBody(t *testing.T) {
	good := validFile(t)
	rng := rand.New(rand.NewPCG(3, 3))
	offsets := []int{headerSize, headerSize + 5, len(good) - 1}
	for range 200 {
		offsets = append(offsets, headerSize+rng.IntN(len(good)-headerSize))
	}
	for _, off := range offsets {
		for _, x := range []byte{0x01, 0x80, 0xff} {
			data := bytes.Clone(good)
			data[off] ^= x
			ix, err := parse("mem", data)
			if err != nil {
				if !errors.Is(err, ErrCorrupt) {
					t.Fatalf("byte %d ^ %#x: Open error %v is not ErrCorrupt", off, x, err)
				}
				continue
			}
			if err := exercise(ix); !errors.Is(err, ErrCorrupt) {
				t.Fatalf("byte %d ^ %#x: corruption not detected (%v)", off, x, err)
			}
		}
	}
}

// TestCorruptNoChecksum damages structures and fixes the checksum up, so that
// only the structural checks stand between the reader and a panic.
func TestCorruptNoChecksum(t *testing.T) {
	good := validFile(t)
	rng := rand.New(rand.NewPCG(4, 4))
	detected := 0
	for i := range 2000 {
		data := bytes.Clone(good)
		for range 1 + i%3 {
			data[headerSize+rng.IntN(len(data)-headerSize)] = byte(rng.Uint32())
		}
		binary.LittleEndian.PutUint32(data[48:], crc32c(data[headerSize:]))
		ix, err := parse("mem", data)
		if err != nil {
			detected++
			continue
		}
		if exercise(ix) != nil {
			detected++
		}
	}
	// The test's main claim is that no corruption panics; most must also
	// be reported rather than read as valid data.
	if detected < 500 {
		t.Errorf("only %d of 2000 corruptions detected", detected)
	}
	t.Logf("%d of 2000 structural corruptions detected (the rest changed only term bytes, frequencies or rows in range)", detected)
}

// FuzzParse: no input file makes the reader panic.
func FuzzParse(f *testing.F) {
	w, _ := randomDocs(rand.New(rand.NewPCG(8, 8)), 6, 8, 5)
	path := filepath.Join(f.TempDir(), "lex.idx")
	if err := w.WriteFile(path); err != nil {
		f.Fatal(err)
	}
	good, err := os.ReadFile(path)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good, false)
	f.Add(good, true)
	f.Add(good[:headerSize], false)
	// Several blocks, long shared prefixes and long suffixes.
	w = NewWriter()
	w.Add(0, numbered(strings.Repeat("prefix", 4), 3*blockTerms))
	w.Add(2, []string{"a", "ab", strings.Repeat("z", 40)})
	if err := w.WriteFile(path); err != nil {
		f.Fatal(err)
	}
	blocks, err := os.ReadFile(path)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(blocks, true)
	f.Fuzz(func(t *testing.T, data []byte, fixCRC bool) {
		if fixCRC && len(data) >= headerSize {
			binary.LittleEndian.PutUint32(data[48:], crc32c(data[headerSize:]))
		}
		ix, err := parse("fuzz", data)
		if err != nil {
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("parse error %v is not ErrCorrupt", err)
			}
			return
		}
		exercise(ix)
		for row := -1; row <= ix.Rows(); row++ {
			ix.DocLen(row)
		}
	})
}
