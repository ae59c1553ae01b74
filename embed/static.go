package embed

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"sync"
	"unsafe"
)

// Static is a static embedding model: a text's vector is the weighted sum of
// the table rows of its sub-tokens (see Tokens), L2-normalised. Sub-tokens
// outside the vocabulary share Buckets hashed rows instead of being dropped.
// Queries and documents may use separate tables and weights.
//
// The file format (all little-endian) is
//
//	"BCEMBED1" | u32 n | n bytes of JSON StaticHeader |
//	vocabulary, one token per line (VocabBytes bytes) |
//	per table (Tables of them; table 0 documents, table 1 queries):
//	    f32 weight[rows] | f32 scale[rows] | i8 q[rows*Dim]
//
// with rows = len(vocabulary) + Buckets and row r ≈ q[r]*scale[r].
type Static struct {
	hdr    StaticHeader
	vocab  map[string]int32
	tables []staticTable
	// countsPool holds zeroed *[]int32 of one count per row, which Embed
	// uses to count a text's sub-tokens per row and zeroes again.
	countsPool sync.Pool
}

// counts returns a zeroed count per row from the pool.
func (m *Static) counts() *[]int32 {
	if c, ok := m.countsPool.Get().(*[]int32); ok {
		return c
	}
	c := make([]int32, m.hdr.Vocab+m.hdr.Buckets)
	return &c
}

// StaticHeader describes a Static model file.
type StaticHeader struct {
	ID         string `json:"id"`
	Dim        int    `json:"dim"`
	Vocab      int    `json:"vocab"`
	VocabBytes int    `json:"vocab_bytes"`
	Buckets    int    `json:"buckets"`
	Tables     int    `json:"tables"` // 1: shared by queries and documents; 2: separate
	MaxTokens  int    `json:"max_tokens"`
	// Notes records how the model was trained; it does not affect inference.
	Notes string `json:"notes,omitempty"`
}

type staticTable struct {
	weight []float32
	scale  []float32
	q      []int8
}

var _ Embedder = (*Static)(nil)

const staticMagic = "BCEMBED1"

// StaticTable is one float table handed to EncodeStatic.
type StaticTable struct {
	Weight []float32   // per row
	Rows   [][]float32 // rows*Dim
}

// EncodeStatic quantises tables to int8 with a per-row scale and writes a
// model file. vocab[i] names row i; rows past the vocabulary are buckets.
func EncodeStatic(w io.Writer, hdr StaticHeader, vocab []string, tables []StaticTable) error {
	var vb bytes.Buffer
	for _, t := range vocab {
		if strings.ContainsRune(t, '\n') || t == "" {
			return fmt.Errorf("encode static model: bad token %q", t)
		}
		vb.WriteString(t)
		vb.WriteByte('\n')
	}
	hdr.Vocab, hdr.VocabBytes, hdr.Tables = len(vocab), vb.Len(), len(tables)
	rows := hdr.Vocab + hdr.Buckets
	js, err := json.Marshal(hdr)
	if err != nil {
		return fmt.Errorf("encode static model: %w", err)
	}
	var out bytes.Buffer
	out.WriteString(staticMagic)
	binary.Write(&out, binary.LittleEndian, uint32(len(js)))
	out.Write(js)
	out.Write(vb.Bytes())
	for _, t := range tables {
		if len(t.Weight) != rows || len(t.Rows) != rows {
			return fmt.Errorf("encode static model: table has %d/%d rows, want %d", len(t.Weight), len(t.Rows), rows)
		}
		binary.Write(&out, binary.LittleEndian, t.Weight)
		scales := make([]float32, rows)
		q := make([]int8, rows*hdr.Dim)
		for r, row := range t.Rows {
			var m float32
			for _, x := range row {
				m = max(m, float32(math.Abs(float64(x))))
			}
			if m == 0 {
				continue
			}
			scales[r] = m / 127
			for j, x := range row {
				q[r*hdr.Dim+j] = int8(math.Round(float64(x / scales[r])))
			}
		}
		binary.Write(&out, binary.LittleEndian, scales)
		binary.Write(&out, binary.LittleEndian, q)
	}
	if _, err := w.Write(out.Bytes()); err != nil {
		return fmt.Errorf("encode static model: %w", err)
	}
	return nil
}

// readStaticHeader reads a model file's header and returns where the
// vocabulary starts.
func readStaticHeader(data []byte) (StaticHeader, int, error) {
	var h StaticHeader
	if len(data) < 12 || string(data[:8]) != staticMagic {
		return h, 0, fmt.Errorf("load static model: bad magic")
	}
	n := int(binary.LittleEndian.Uint32(data[8:]))
	p := 12
	if n > len(data)-p {
		return h, 0, fmt.Errorf("load static model: truncated header")
	}
	if err := json.Unmarshal(data[p:p+n], &h); err != nil {
		return h, 0, fmt.Errorf("load static model: header: %w", err)
	}
	return h, p + n, nil
}

// LoadStatic parses a model file. The int8 rows alias data: do not modify it.
func LoadStatic(data []byte) (*Static, error) {
	fail := func(msg string) (*Static, error) {
		return nil, fmt.Errorf("load static model: %s", msg)
	}
	hdr, p, err := readStaticHeader(data)
	if err != nil {
		return nil, err
	}
	m := &Static{hdr: hdr}
	h := m.hdr
	if h.Dim <= 0 || h.Vocab < 0 || h.Buckets <= 0 || h.Tables < 1 || h.Tables > 2 || h.VocabBytes > len(data)-p {
		return fail("bad header")
	}
	words := strings.Split(strings.TrimSuffix(string(data[p:p+h.VocabBytes]), "\n"), "\n")
	if h.Vocab == 0 {
		words = nil
	}
	if len(words) != h.Vocab {
		return fail("vocabulary size mismatch")
	}
	m.vocab = make(map[string]int32, len(words))
	for i, w := range words {
		m.vocab[w] = int32(i)
	}
	p += h.VocabBytes
	rows := h.Vocab + h.Buckets
	need := rows*8 + rows*h.Dim
	for t := 0; t < h.Tables; t++ {
		if len(data)-p < need {
			return fail("truncated table")
		}
		var tb staticTable
		tb.weight = f32s(data[p : p+rows*4])
		tb.scale = f32s(data[p+rows*4 : p+rows*8])
		// int8 and byte share their layout: alias rather than copy, so that
		// the embedded table is paged in as rows are used.
		b := data[p+rows*8 : p+need]
		tb.q = unsafe.Slice((*int8)(unsafe.Pointer(unsafe.SliceData(b))), len(b))
		m.tables = append(m.tables, tb)
		p += need
	}
	if p != len(data) {
		return fail("trailing bytes")
	}
	return m, nil
}

func f32s(b []byte) []float32 {
	out := make([]float32, len(b)/4)
	for i := range out {
		out[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[i*4:]))
	}
	return out
}

// ID implements Embedder.
func (m *Static) ID() string { return m.hdr.ID }

// Dim implements Embedder.
func (m *Static) Dim() int { return m.hdr.Dim }

// Header returns the model's header.
func (m *Static) Header() StaticHeader { return m.hdr }

// Row returns the row of a sub-token: its vocabulary index, or a bucket.
func (m *Static) Row(tok string) int {
	if r, ok := m.vocab[tok]; ok {
		return int(r)
	}
	return m.hdr.Vocab + int(BucketHash(tok)%uint64(m.hdr.Buckets))
}

// Embed implements Embedder.
func (m *Static) Embed(ctx context.Context, texts []string, role Role) ([][]float32, error) {
	t := &m.tables[0]
	if role == RoleQuery && len(m.tables) > 1 {
		t = &m.tables[1]
	}
	out := make([][]float32, len(texts))
	var toks []string
	var rows []int32 // the distinct rows of one text
	var buf []byte   // the lowercased sub-tokens of one text
	counts := m.counts()
	defer m.countsPool.Put(counts)
	for i, text := range texts {
		if i%ctxCheckEvery == 0 {
			if err := ctx.Err(); err != nil {
				return nil, fmt.Errorf("embed %s: %w", m.hdr.ID, err)
			}
		}
		buf = buf[:0] // toks of the previous text are done with
		toks = appendTokens(toks[:0], &buf, text)
		if m.hdr.MaxTokens > 0 && len(toks) > m.hdr.MaxTokens {
			toks = toks[:m.hdr.MaxTokens]
		}
		// Each distinct row is added once, weighted by its count, in
		// ascending row order: a fixed summation order, so that vectors
		// are bit-for-bit reproducible. Only the distinct rows are sorted.
		rows = rows[:0]
		for _, tok := range toks {
			r := m.Row(tok)
			if (*counts)[r] == 0 {
				rows = append(rows, int32(r))
			}
			(*counts)[r]++
		}
		slices.Sort(rows)
		v := make([]float32, m.hdr.Dim)
		for _, r := range rows {
			m.addRow(t, v, int(r), TFWeight(int((*counts)[r])))
			(*counts)[r] = 0
		}
		normalize(v)
		out[i] = v
	}
	return out, nil
}

// addRow adds row r of t, weighted by tf and the row's weight, to v.
func (m *Static) addRow(t *staticTable, v []float32, r int, tf float32) {
	w := t.weight[r] * tf * t.scale[r]
	if w == 0 {
		return
	}
	addScaled(v, t.q[r*m.hdr.Dim:(r+1)*m.hdr.Dim], w)
}

// addScaled adds w × row to v: addScaledGo, or the same operations eight
// lanes at a time where the CPU has them and BCINDEX_KERNEL allows them
// (addrow_simd_amd64.go). addScaledAll holds every implementation the build
// and CPU can run, for the tests.
var (
	addScaled    = addScaledGo
	addScaledAll = map[string]func(v []float32, row []int8, w float32){"go": addScaledGo}
)

func addScaledGo(v []float32, row []int8, w float32) {
	v = v[:len(row)]
	for j, x := range row {
		v[j] += w * float32(x)
	}
}

// TFWeight damps the count of a sub-token in one text; training uses the
// same function.
func TFWeight(count int) float32 {
	if count > 0 && count < len(tfWeights) {
		return tfWeights[count]
	}
	return float32(1 + math.Log(float64(count)))
}

// tfWeights holds TFWeight of the counts most sub-tokens have in a text,
// computed as TFWeight computes the others: a logarithm per distinct
// sub-token was 6% of embedding a text.
var tfWeights = func() (w [64]float32) {
	for c := 1; c < len(w); c++ {
		w[c] = float32(1 + math.Log(float64(c)))
	}
	return w
}()

// BucketHash is the hash that assigns an unknown sub-token to a bucket row
// (row = vocabulary size + BucketHash(tok) % buckets).
func BucketHash(tok string) uint64 { return fnv64(tok, 0) }

// Tables returns the model's vocabulary and its tables dequantised, for
// fine-tuning (cmd/bcindex-train adapt).
func (m *Static) Tables() (vocab []string, tables []StaticTable) {
	vocab = make([]string, len(m.vocab))
	for t, r := range m.vocab {
		vocab[r] = t
	}
	D := m.hdr.Dim
	for _, t := range m.tables {
		st := StaticTable{Weight: append([]float32(nil), t.weight...), Rows: make([][]float32, len(t.weight))}
		for r := range st.Rows {
			row := make([]float32, D)
			for j, x := range t.q[r*D : (r+1)*D] {
				row[j] = float32(x) * t.scale[r]
			}
			st.Rows[r] = row
		}
		tables = append(tables, st)
	}
	return vocab, tables
}
