package lexical

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
)

// decodeAll runs an Iterator over a postings list of df rows in an index of
// rows rows.
func decodeAll(data []byte, df, rows int) ([]posting, error) {
	it := Iterator{data: data, n: df, rows: rows, row: -1}
	out := collect(&it)
	return out, it.Err()
}

func TestPostingEncoding(t *testing.T) {
	const maxRows = math.MaxUint32 - 1 // rows a Writer accepts: 0 .. MaxUint32-2
	tests := []struct {
		name  string
		rows  int
		list  []posting
		bytes int // encoded size, 0 to skip the check
	}{
		{"tf 1 in one byte", 10, []posting{{0, 1}}, 1},
		{"tf 3 in one byte", 10, []posting{{9, 3}}, 1},
		{"tf 4 takes a frequency byte", 10, []posting{{0, 4}}, 2},
		{"tf 131 in two bytes", 10, []posting{{0, 131}}, 2},
		{"tf 132 in three bytes", 10, []posting{{0, 132}}, 3},
		{"tf large", 10, []posting{{0, 1 << 20}, {1, math.MaxUint32}, {2, 1}}, 1 + 3 + 1 + 5 + 1},
		{"gap 31 in one byte", 100, []posting{{31, 1}}, 1},
		{"gap 32 in two bytes", 100, []posting{{32, 1}}, 2},
		{"consecutive rows", 100, []posting{{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 5}}, 1 + 1 + 1 + 2 + 2},
		{"gaps across varint sizes", 1 << 22, []posting{{31, 1}, {63, 2}, {64, 1}, {1<<13 + 64, 7}, {1 << 21, 1}, {1<<22 - 1, 3}}, 0},
		{"delta of 2^31 and more", maxRows, []posting{{0, 1}, {1<<31 + 7, 2}, {maxRows - 1, 9}}, 0},
		{"first row 2^32-2", maxRows, []posting{{maxRows - 1, math.MaxUint32}}, 0},
		{"last row of the index", 5, []posting{{4, 1}}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf []byte
			last := -1
			for _, p := range tt.list {
				buf = appendPosting(buf, uint64(p.row-last-1), uint64(p.freq))
				last = p.row
			}
			if tt.bytes != 0 && len(buf) != tt.bytes {
				t.Errorf("encoded in %d bytes, want %d", len(buf), tt.bytes)
			}
			got, err := decodeAll(buf, len(tt.list), tt.rows)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tt.list) {
				t.Fatalf("decoded %v, want %v", got, tt.list)
			}
		})
	}
}

func TestPostingDecodeErrors(t *testing.T) {
	enc := func(ps ...posting) []byte {
		var buf []byte
		last := -1
		for _, p := range ps {
			buf = appendPosting(buf, uint64(p.row-last-1), uint64(p.freq))
			last = p.row
		}
		return buf
	}
	tests := []struct {
		name     string
		data     []byte
		df, rows int
		want     string
	}{
		{"row past the index", enc(posting{10, 1}), 1, 10, "row out of range"},
		{"row past the index after others", enc(posting{3, 1}, posting{9, 2}), 2, 9, "row out of range"},
		{"more postings than df", enc(posting{1, 1}, posting{2, 1}), 1, 10, "row out of range"},
		{"fewer postings than df", enc(posting{1, 1}), 2, 10, "ends after 1 of 2"},
		{"truncated code", []byte{0x80}, 1, 10, "bad row gap"},
		{"code overflows 64 bits", bytes.Repeat([]byte{0xff}, 11), 1, 10, "bad row gap"},
		{"missing frequency", []byte{3}, 1, 10, "bad term frequency"},
		{"truncated frequency", []byte{3, 0x80}, 1, 10, "bad term frequency"},
		{"frequency past 2^32-1", binary.AppendUvarint([]byte{3}, math.MaxUint32-3), 1, 10, "bad term frequency"},
		{"huge gap", binary.AppendUvarint(nil, math.MaxUint64&^3), 1, 10, "row out of range"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := decodeAll(tt.data, tt.df, tt.rows)
			if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want ErrCorrupt mentioning %q", err, tt.want)
			}
		})
	}
}

// numbered returns n distinct terms, prefix followed by a number.
func numbered(prefix string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("%s%05d", prefix, i)
	}
	return out
}

func TestDictionaryEdgeCases(t *testing.T) {
	long := strings.Repeat("verylongidentifierprefix", 5) // 120 bytes
	var chain []string                                    // each term a prefix of the next
	for i := 1; i <= 40; i++ {
		chain = append(chain, strings.Repeat("ab", i)[:i])
	}
	tests := []struct {
		name  string
		rows  [][]string // tokens of rows 0, 1, ...
		extra []string   // lookups that must find nothing (if not terms)
	}{
		{"zero rows", nil, []string{"a"}},
		{"rows without terms", [][]string{nil, {""}, nil}, []string{"a"}},
		{"single term", [][]string{{"only"}}, []string{"onl", "only\x00", "onlz", "a", "z"}},
		{"single term twice", [][]string{nil, {"only", "only"}}, nil},
		{"one short of a block", [][]string{numbered("t", blockTerms-1)}, nil},
		{"one block", [][]string{numbered("t", blockTerms)}, nil},
		{"one past a block", [][]string{numbered("t", blockTerms+1)}, nil},
		{"two blocks", [][]string{numbered("t", 2*blockTerms)}, nil},
		{"two blocks and one", [][]string{numbered("t", 2*blockTerms+1), numbered("t", 3)}, nil},
		{"many blocks", [][]string{numbered("x", 40*blockTerms+3), numbered("a", 5)}, []string{"x", "y", "w"}},
		{"long shared prefixes", [][]string{
			{long, long + "a", long + "b", long + strings.Repeat("c", 15), long + strings.Repeat("c", 16)},
			numbered(long, 3*blockTerms),
			{long[:14], long[:15], long[:16], long[:30]},
		}, []string{long[:17], long + "c", long + "\xff"}},
		{"prefix chain", [][]string{chain, chain[:5]}, []string{"abababababababababababababababababababababab", "abb", "b"}},
		{"equal keys across blocks", [][]string{numbered("samekey_", 5*blockTerms)}, []string{"samekey_", "samekey", "samekey_0", "samekey_99999"}},
		{"zero and high bytes", [][]string{
			{"a", "a\x00", "a\x00\x00", "a\x00b", "\x00", "\x00\x00", "\xff", "\xff\xff", "a\xff", "ab"},
		}, []string{"a\x00\x00\x00", "\x00\x00\x00", "\xfe", "\xff\xff\xff"}},
		{"long suffixes", [][]string{{strings.Repeat("q", 14), strings.Repeat("q", 15) + strings.Repeat("r", 300), strings.Repeat("s", 1000)}}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, ref := NewWriter(), newReference()
			for row, toks := range tt.rows {
				w.Add(row, toks)
				ref.add(row, toks)
			}
			ix := writeAndOpen(t, w)
			check(t, ix, ref)
			if !bytes.Equal(ix.data, encodeBytes(t, w)) {
				t.Fatal("WriteFile and encode differ")
			}
			// Near misses of every term, and the extras, are not found.
			probes := slices.Clone(tt.extra)
			for term := range ref.postings {
				probes = append(probes, term+"\x00", term+"\xff", term[:len(term)-1], term[1:], "\x00"+term)
				if b := []byte(term); b[len(b)-1] < 0xff {
					b[len(b)-1]++
					probes = append(probes, string(b))
				}
			}
			for _, p := range probes {
				if _, ok := ref.postings[p]; ok {
					continue
				}
				it := ix.Iter(p)
				if it.Len() != 0 || it.Next() || it.Err() != nil {
					t.Fatalf("Iter(%q) of a missing term: len %d, err %v", p, it.Len(), it.Err())
				}
			}
			// The cursor lists the terms in order, from any block.
			terms := make([]string, 0, len(ref.postings))
			for term := range ref.postings {
				terms = append(terms, term)
			}
			slices.Sort(terms)
			for i, term := range terms {
				if got := string(ix.term(i)); got != term {
					t.Fatalf("term(%d) = %q, want %q", i, got, term)
				}
			}
			if ix.term(-1) != nil || ix.term(len(terms)) != nil {
				t.Fatal("term out of range is not nil")
			}
		})
	}
}

// rawTerm is one dictionary entry of a hand-built file.
type rawTerm struct {
	prefix  int
	suffix  string
	df      int
	postLen int // -1: len(post)
	post    []byte
}

// FuzzWriteRead: any terms and rows round-trip through a file. Lines are
// rows, spaces separate tokens, and a line starting with '+' skips a row.
func FuzzWriteRead(f *testing.F) {
	f.Add([]byte("parse json\nhttp server http\n+\nx"))
	f.Add([]byte(strings.Join(numbered("identifier_", 3*blockTerms+1), " ") + "\n+\n" + strings.Join(numbered("id", 40), " ")))
	f.Add([]byte("a a\x00 a\x00\x00 \xff\xff \x00\n\n" + strings.Repeat("pre", 30) + " " + strings.Repeat("pre", 31)))
	f.Fuzz(func(t *testing.T, data []byte) {
		w, ref := NewWriter(), newReference()
		row := 0
		for _, line := range strings.Split(string(data), "\n") {
			if strings.HasPrefix(line, "+") {
				row++
			}
			toks := strings.Split(line, " ")
			w.Add(row, toks)
			ref.add(row, toks)
			row++
		}
		ix, err := parse("mem", encodeBytes(t, w))
		if err != nil {
			t.Fatal(err)
		}
		check(t, ix, ref)
	})
}

// encodeBytes returns the file w would write.
func encodeBytes(t testing.TB, w *Writer) []byte {
	t.Helper()
	var body bytes.Buffer
	h, err := w.encode(&body)
	if err != nil {
		t.Fatal(err)
	}
	return append(h, body.Bytes()...)
}
