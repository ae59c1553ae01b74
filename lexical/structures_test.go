package lexical

import (
	"encoding/binary"
	"errors"
	"slices"
	"strings"
	"testing"
)

// buildRaw assembles a postings file from dictionary entries in blocks of
// bsize, filling in the block index (keys from the entries as written),
// header and checksum, so that tests can break one thing at a time.
func buildRaw(bsize, rows int, terms []rawTerm) []byte {
	var index, dict, post []byte
	var full string
	for i, t := range terms {
		if i%bsize == 0 {
			var key [8]byte
			copy(key[:], t.suffix)
			index = append(index, key[:]...)
			index = binary.LittleEndian.AppendUint64(index, uint64(len(post)))
			index = binary.LittleEndian.AppendUint32(index, uint32(len(dict)))
			full = ""
		}
		full = full[:min(t.prefix, len(full))] + t.suffix
		pl := t.postLen
		if pl < 0 {
			pl = len(t.post)
		}
		dict = appendEntry(dict, t.prefix, t.suffix, uint32(t.df), pl)
		post = append(post, t.post...)
	}
	index = append(index, make([]byte, 8)...)
	index = binary.LittleEndian.AppendUint64(index, uint64(len(post)))
	index = binary.LittleEndian.AppendUint32(index, uint32(len(dict)))

	h := make([]byte, headerSize)
	copy(h, magic)
	h[5], h[6], h[7] = version, 2, byte(bsize)
	binary.LittleEndian.PutUint64(h[8:], uint64(rows))
	binary.LittleEndian.PutUint64(h[16:], uint64(len(terms)))
	binary.LittleEndian.PutUint64(h[24:], uint64(rows))
	binary.LittleEndian.PutUint64(h[32:], uint64(len(dict)))
	binary.LittleEndian.PutUint64(h[40:], uint64(len(post)))
	data := slices.Concat(h, index, dict, post)
	for range rows {
		data = binary.LittleEndian.AppendUint16(data, 1)
	}
	binary.LittleEndian.PutUint32(data[48:], crc32c(data[headerSize:]))
	return data
}

// rawTerms returns whole terms front-coded in blocks of bsize, each with the
// postings list "row 0, tf 1".
func rawTerms(bsize int, terms ...string) []rawTerm {
	out := make([]rawTerm, len(terms))
	for i, term := range terms {
		p := 0
		if i%bsize != 0 {
			p = commonPrefix(terms[i-1], term)
		}
		out[i] = rawTerm{prefix: p, suffix: term[p:], df: 1, postLen: -1, post: []byte{0}}
	}
	return out
}

// TestCorruptStructures damages one structure of the dictionary, block
// index or postings at a time, with a valid checksum: Verify must name the
// damage, and nothing may panic.
func TestCorruptStructures(t *testing.T) {
	const bsize = 4
	words := []string{"alpha", "alphabet", "alps", "beta", "betamax", "bets", "gamma", "gammaray", "zeta", "zetas"}
	good := func() []rawTerm { return rawTerms(bsize, words...) }
	// Offsets in a file built from good(): 10 terms in blocks of 4 give 3
	// blocks and 4 index entries.
	const indexOff = headerSize
	const dictOff = indexOff + 4*blockEntrySize
	fixCRC := func(b []byte) []byte {
		binary.LittleEndian.PutUint32(b[48:], crc32c(b[headerSize:]))
		return b
	}
	tests := []struct {
		name string
		data func() []byte
		want string // in Verify's error
	}{
		{"valid", func() []byte { return buildRaw(bsize, 3, good()) }, ""},
		{"block's first term not whole", func() []byte {
			ts := good()
			ts[4] = rawTerm{prefix: 1, suffix: "etamax", df: 1, postLen: -1, post: []byte{0}}
			return buildRaw(bsize, 3, ts)
		}, "not stored whole"},
		{"prefix not the longest", func() []byte {
			ts := good()
			ts[1] = rawTerm{prefix: 4, suffix: "abet", df: 1, postLen: -1, post: []byte{0}} // alph+abet: shares 5
			return buildRaw(bsize, 3, ts)
		}, "not after the previous term"},
		{"terms out of order in a block", func() []byte {
			ts := good()
			ts[2] = rawTerm{prefix: 0, suffix: "aa", df: 1, postLen: -1, post: []byte{0}}
			return buildRaw(bsize, 3, ts)
		}, "not after the previous term"},
		{"duplicate term", func() []byte {
			ts := good()
			ts[1] = rawTerm{prefix: 5, suffix: "", df: 1, postLen: -1, post: []byte{0}}
			return buildRaw(bsize, 3, ts)
		}, "not after the previous term"},
		{"prefix longer than the previous term", func() []byte {
			ts := good()
			ts[3] = rawTerm{prefix: 9, suffix: "x", df: 1, postLen: -1, post: []byte{0}}
			return buildRaw(bsize, 3, ts)
		}, "not after the previous term"},
		{"blocks out of order", func() []byte {
			return buildRaw(bsize, 3, rawTerms(bsize, "b1", "b2", "b3", "b4", "a5", "a6"))
		}, "is not after"},
		{"block key mismatch", func() []byte {
			b := buildRaw(bsize, 3, good())
			b[indexOff+blockEntrySize]++ // block 1's key
			return fixCRC(b)
		}, "block key"},
		{"df 0", func() []byte {
			ts := good()
			ts[5].df = 0
			return buildRaw(bsize, 3, ts)
		}, "bad document frequency or postings length"},
		{"df above postings length", func() []byte {
			ts := good()
			ts[5].df = 2
			return buildRaw(bsize, 3, ts)
		}, "bad document frequency or postings length"},
		{"postings length past the section", func() []byte {
			ts := good()
			ts[9].postLen = 2
			return buildRaw(bsize, 3, ts)
		}, "bad document frequency or postings length"},
		{"postings lengths disagree with the block index", func() []byte {
			// The last list of block 0 takes in the first of block 1,
			// forming a valid list of rows 0 and 1.
			ts := good()
			ts[3].df, ts[3].postLen = 2, 2
			return buildRaw(bsize, 3, ts)
		}, "does not start where"},
		{"postings list shorter than df", func() []byte {
			ts := good()
			ts[6] = rawTerm{prefix: 0, suffix: "gamma", df: 2, postLen: 2, post: []byte{3, 0}} // row 0, tf 4
			return buildRaw(bsize, 3, ts)
		}, "ends after 1 of 2"},
		{"row past the index", func() []byte {
			ts := good()
			ts[6].post = []byte{3 << 2}
			return buildRaw(bsize, 3, ts)
		}, "row out of range"},
		{"terms one fewer than the dictionary holds", func() []byte {
			b := buildRaw(bsize, 3, good())
			binary.LittleEndian.PutUint64(b[16:], 9)
			return fixCRC(b)
		}, "does not start where"},
		{"terms one more than the dictionary holds", func() []byte {
			b := buildRaw(bsize, 3, good())
			binary.LittleEndian.PutUint64(b[16:], 11)
			return fixCRC(b)
		}, "bad dictionary entry"},
		{"empty block", func() []byte {
			b := buildRaw(bsize, 3, good())
			// Block 2 starts where block 1 does.
			copy(b[indexOff+2*blockEntrySize+16:], b[indexOff+blockEntrySize+16:][:4])
			return fixCRC(b)
		}, "bad dictionary block 1"},
		{"block boundary inside an entry", func() []byte {
			b := buildRaw(bsize, 3, good())
			off := binary.LittleEndian.Uint32(b[indexOff+2*blockEntrySize+16:])
			binary.LittleEndian.PutUint32(b[indexOff+2*blockEntrySize+16:], off-1)
			return fixCRC(b)
		}, "bad dictionary entry"},
		{"entry header past its block", func() []byte {
			b := buildRaw(bsize, 3, good())
			b[dictOff] = 0x0f // first suffix length 15 + uvarint
			return fixCRC(b)
		}, "bad dictionary entry"},
		{"doc lengths", func() []byte {
			b := buildRaw(bsize, 3, good())
			b[len(b)-2]++
			return fixCRC(b)
		}, "doc lengths sum"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ix, err := parse("mem", tt.data())
			if err != nil {
				t.Fatalf("parse: %v", err)
			}
			err = ix.Verify()
			if tt.want == "" {
				if err != nil {
					t.Fatalf("Verify: %v", err)
				}
				for _, w := range words {
					if it := ix.Iter(w); it.Len() != 1 || !it.Next() || it.Row() != 0 || it.Freq() != 1 {
						t.Fatalf("Iter(%q) wrong", w)
					}
				}
				return
			}
			if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Verify error %v, want ErrCorrupt mentioning %q", err, tt.want)
			}
			exercise(ix) // must not panic
			for _, w := range words {
				it := ix.Iter(w)
				for it.Next() {
				}
			}
			// Append reads every dictionary entry and postings list.
			rowMap := make([]int32, ix.Rows())
			for r := range rowMap {
				rowMap[r] = int32(r)
			}
			err = NewWriter().Append(ix, rowMap)
			if tt.want == "doc lengths sum" {
				err = ErrCorrupt // Append does not add up doc lengths
			}
			if !errors.Is(err, ErrCorrupt) {
				t.Errorf("Append of the corrupt index: %v", err)
			}
		})
	}
}
