package embed

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Model2Vec is a static model in model2vec's format (e.g. minishlab's
// potion models), loaded from a directory holding
//
//   - model.safetensors: the embedding table, tensor "embeddings" (else the
//     first 2-D tensor by name), dtype F32, F16, BF16 or I8; an I8 table may
//     come with a "scales" (or "scale") tensor, per row or global. Optional
//     "weights" (per-token weights) and "mapping" (token id → row) tensors
//     are applied when present.
//   - tokenizer.json: a Hugging Face WordPiece tokenizer (model.vocab with
//     its unk token, "##" continuations); lowercased when the normalizer
//     says so.
//   - config.json: model2vec's configuration ("normalize").
//
// A text's vector is the mean of the rows of its tokens (unknown tokens
// dropped, at most 512 tokens, as model2vec does), L2-normalised: the
// Embedder contract wants unit vectors whatever config.json's "normalize"
// says, and cosine ranking is the same either way.
type Model2Vec struct {
	id        string
	dim       int
	table     []float32 // rows*dim
	weights   []float32 // per token id, or nil
	mapping   []int32   // token id → row, or nil
	normalize bool

	vocab        map[string]int32
	unk          int32 // -1: no unk token
	lowercase    bool
	prefix       string // continuing-subword prefix, "##"
	maxWordChars int
	maxTokens    int
}

var _ Embedder = (*Model2Vec)(nil)

// model2vecMaxTokens is model2vec's default max_length.
const model2vecMaxTokens = 512

// LoadModel2Vec loads a model2vec model directory.
func LoadModel2Vec(dir string) (*Model2Vec, error) {
	st, err := os.ReadFile(filepath.Join(dir, "model.safetensors"))
	if err != nil {
		return nil, fmt.Errorf("model2vec: %w", err)
	}
	tj, err := os.ReadFile(filepath.Join(dir, "tokenizer.json"))
	if err != nil {
		return nil, fmt.Errorf("model2vec: %w", err)
	}
	cj, err := os.ReadFile(filepath.Join(dir, "config.json"))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("model2vec: %w", err)
	}
	m := &Model2Vec{normalize: true, maxTokens: model2vecMaxTokens}
	if cj != nil {
		var cfg struct {
			Normalize *bool `json:"normalize"`
		}
		if err := json.Unmarshal(cj, &cfg); err != nil {
			return nil, fmt.Errorf("model2vec: %s: %w", filepath.Join(dir, "config.json"), err)
		}
		if cfg.Normalize != nil {
			m.normalize = *cfg.Normalize
		}
	}
	if err := m.loadTokenizer(tj); err != nil {
		return nil, fmt.Errorf("model2vec: %s: %w", filepath.Join(dir, "tokenizer.json"), err)
	}
	if err := m.loadTensors(st); err != nil {
		return nil, fmt.Errorf("model2vec: %s: %w", filepath.Join(dir, "model.safetensors"), err)
	}
	rows := len(m.table) / m.dim
	for tok, id := range m.vocab {
		r := int(id)
		if m.mapping != nil {
			if r >= len(m.mapping) {
				return nil, fmt.Errorf("model2vec: token %q has id %d beyond the %d-entry mapping", tok, id, len(m.mapping))
			}
			r = int(m.mapping[r])
		}
		if r < 0 || r >= rows {
			return nil, fmt.Errorf("model2vec: token %q maps to row %d of a %d-row table", tok, r, rows)
		}
		if m.weights != nil && int(id) >= len(m.weights) {
			return nil, fmt.Errorf("model2vec: token %q has id %d beyond the %d weights", tok, id, len(m.weights))
		}
	}
	// The ID names the directory and the dimension, and fingerprints the
	// files, so replacing the weights in place never mixes vectors.
	h := sha256.New()
	for _, b := range [][]byte{st, tj, cj} {
		var n [8]byte
		binary.LittleEndian.PutUint64(n[:], uint64(len(b)))
		h.Write(n[:])
		h.Write(b)
	}
	name := filepath.Base(filepath.Clean(dir))
	if abs, err := filepath.Abs(dir); err == nil {
		name = filepath.Base(abs)
	}
	m.id = ProviderModel2Vec + ":" + name + ":" + strconv.Itoa(m.dim) + ":" + hex.EncodeToString(h.Sum(nil)[:4])
	return m, nil
}

// ID returns "model2vec:<directory name>:<dimension>:<content hash>".
func (m *Model2Vec) ID() string { return m.id }

// Dim returns the width of the embedding table.
func (m *Model2Vec) Dim() int { return m.dim }

// Embed implements Embedder; role is ignored (one table for both sides).
func (m *Model2Vec) Embed(ctx context.Context, texts []string, role Role) ([][]float32, error) {
	out := make([][]float32, len(texts))
	var ids []int32
	for i, t := range texts {
		if i%ctxCheckEvery == 0 {
			if err := ctx.Err(); err != nil {
				return nil, fmt.Errorf("embed %s: %w", m.id, err)
			}
		}
		ids = m.tokenIDs(ids[:0], t)
		v := make([]float32, m.dim)
		for _, id := range ids {
			r, w := int(id), float32(1)
			if m.weights != nil {
				w = m.weights[id]
			}
			if m.mapping != nil {
				r = int(m.mapping[id])
			}
			row := m.table[r*m.dim : (r+1)*m.dim]
			for d, x := range row {
				v[d] += w * x
			}
		}
		if len(ids) > 0 {
			inv := 1 / float32(len(ids))
			for d := range v {
				v[d] *= inv
			}
		}
		normalize(v)
		out[i] = v
	}
	return out, nil
}

// Tokens returns the WordPiece tokens model2vec embeds for text (unknown
// tokens dropped), for tests and debugging.
func (m *Model2Vec) Tokens(text string) []string {
	inv := make(map[int32]string, len(m.vocab))
	for t, id := range m.vocab {
		inv[id] = t
	}
	var out []string
	for _, id := range m.tokenIDs(nil, text) {
		out = append(out, inv[id])
	}
	return out
}

// tokenIDs appends the token ids of text: BERT-style pre-tokenisation, then
// greedy longest-match-first WordPiece.
func (m *Model2Vec) tokenIDs(dst []int32, text string) []int32 {
	if m.lowercase {
		text = strings.ToLower(text)
	}
	n := 0
	emit := func(id int32) bool {
		if id == m.unk || id < 0 {
			return true
		}
		dst = append(dst, id)
		n++
		return n < m.maxTokens
	}
	word := func(w string) bool {
		if utf8.RuneCountInString(w) > m.maxWordChars {
			return emit(m.unk)
		}
		var pieces []int32
		for start := 0; start < len(w); {
			end, id := len(w), int32(-1)
			for end > start {
				sub := w[start:end]
				if start > 0 {
					sub = m.prefix + sub
				}
				if v, ok := m.vocab[sub]; ok {
					id = v
					break
				}
				_, size := utf8.DecodeLastRuneInString(w[start:end])
				end -= size
			}
			if id < 0 {
				return emit(m.unk) // the whole word is unknown, as in BERT
			}
			pieces = append(pieces, id)
			start = end
		}
		for _, id := range pieces {
			if !emit(id) {
				return false
			}
		}
		return true
	}
	start := -1
	for i, r := range text {
		split, keep := isBertSpace(r) || unicode.IsControl(r) || r == utf8.RuneError, false
		if !split && (isBertPunct(r) || isCJK(r)) {
			split, keep = true, true
		}
		if !split {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			if !word(text[start:i]) {
				return dst
			}
			start = -1
		}
		if keep && !word(text[i:i+utf8.RuneLen(r)]) {
			return dst
		}
	}
	if start >= 0 {
		word(text[start:])
	}
	return dst
}

func isBertSpace(r rune) bool {
	return r == ' ' || r == '\t' || r == '\n' || r == '\r' || unicode.Is(unicode.Zs, r)
}

// isBertPunct is BERT's punctuation: all non-alphanumeric ASCII printable
// characters, and Unicode punctuation.
func isBertPunct(r rune) bool {
	if (r >= 33 && r <= 47) || (r >= 58 && r <= 64) || (r >= 91 && r <= 96) || (r >= 123 && r <= 126) {
		return true
	}
	return unicode.IsPunct(r)
}

// isCJK reports CJK ideographs, which BERT splits one per token.
func isCJK(r rune) bool {
	return (r >= 0x4E00 && r <= 0x9FFF) || (r >= 0x3400 && r <= 0x4DBF) || (r >= 0x20000 && r <= 0x2A6DF) ||
		(r >= 0x2A700 && r <= 0x2B73F) || (r >= 0x2B740 && r <= 0x2B81F) || (r >= 0x2B820 && r <= 0x2CEAF) ||
		(r >= 0xF900 && r <= 0xFAFF) || (r >= 0x2F800 && r <= 0x2FA1F)
}

// tokenizerJSON is the part of a Hugging Face tokenizer.json read here.
type tokenizerJSON struct {
	Normalizer *normalizerJSON `json:"normalizer"`
	Model      struct {
		Type                    string           `json:"type"`
		Vocab                   map[string]int64 `json:"vocab"`
		UnkToken                *string          `json:"unk_token"`
		ContinuingSubwordPrefix *string          `json:"continuing_subword_prefix"`
		MaxInputCharsPerWord    int              `json:"max_input_chars_per_word"`
	} `json:"model"`
}

type normalizerJSON struct {
	Type        string           `json:"type"`
	Lowercase   *bool            `json:"lowercase"`
	Normalizers []normalizerJSON `json:"normalizers"`
}

// lowercases reports whether a normalizer lowercases its input.
func (n *normalizerJSON) lowercases() bool {
	if n == nil {
		return false
	}
	switch n.Type {
	case "BertNormalizer":
		return n.Lowercase == nil || *n.Lowercase
	case "Lowercase":
		return true
	case "Sequence":
		return slices.ContainsFunc(n.Normalizers, func(c normalizerJSON) bool { return c.lowercases() })
	}
	return false
}

func (m *Model2Vec) loadTokenizer(b []byte) error {
	var tj tokenizerJSON
	if err := json.Unmarshal(b, &tj); err != nil {
		return err
	}
	if tj.Model.Type != "" && tj.Model.Type != "WordPiece" {
		return fmt.Errorf("tokenizer model %q is not supported, only WordPiece", tj.Model.Type)
	}
	if len(tj.Model.Vocab) == 0 {
		return errors.New("model.vocab is empty or missing")
	}
	m.vocab = make(map[string]int32, len(tj.Model.Vocab))
	for t, id := range tj.Model.Vocab {
		if id < 0 || id > math.MaxInt32 {
			return fmt.Errorf("token %q has id %d", t, id)
		}
		m.vocab[t] = int32(id)
	}
	unk := "[UNK]"
	if tj.Model.UnkToken != nil {
		unk = *tj.Model.UnkToken
	}
	m.unk = -1
	if id, ok := m.vocab[unk]; ok {
		m.unk = id
	}
	m.prefix = "##"
	if tj.Model.ContinuingSubwordPrefix != nil {
		m.prefix = *tj.Model.ContinuingSubwordPrefix
	}
	m.maxWordChars = 100
	if tj.Model.MaxInputCharsPerWord > 0 {
		m.maxWordChars = tj.Model.MaxInputCharsPerWord
	}
	m.lowercase = tj.Normalizer.lowercases()
	return nil
}

// safetensorsTensor is one entry of a safetensors header.
type safetensorsTensor struct {
	DType   string   `json:"dtype"`
	Shape   []int64  `json:"shape"`
	Offsets [2]int64 `json:"data_offsets"`
}

// parseSafetensors reads the header of a safetensors file: a little-endian
// u64 length, that many bytes of JSON, then the tensor data, which it
// returns with the tensors whose offsets it checked.
func parseSafetensors(b []byte) (map[string]safetensorsTensor, []byte, error) {
	if len(b) < 8 {
		return nil, nil, errors.New("not a safetensors file: too short")
	}
	n := binary.LittleEndian.Uint64(b)
	if n > uint64(len(b)-8) || n > 100<<20 {
		return nil, nil, fmt.Errorf("not a safetensors file: header of %d bytes in a %d-byte file", n, len(b))
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b[8:8+n], &raw); err != nil {
		return nil, nil, fmt.Errorf("safetensors header: %w", err)
	}
	data := b[8+n:]
	ts := make(map[string]safetensorsTensor, len(raw))
	for name, r := range raw {
		if name == "__metadata__" {
			continue
		}
		var t safetensorsTensor
		if err := json.Unmarshal(r, &t); err != nil {
			return nil, nil, fmt.Errorf("safetensors tensor %q: %w", name, err)
		}
		size, ok := dtypeSize(t.DType)
		if !ok {
			ts[name] = t // unsupported dtypes are refused only if used
			continue
		}
		count := int64(1)
		for _, d := range t.Shape {
			if d < 0 || (d > 0 && count > math.MaxInt64/8/d) {
				return nil, nil, fmt.Errorf("safetensors tensor %q: bad shape %v", name, t.Shape)
			}
			count *= d
		}
		if t.Offsets[0] < 0 || t.Offsets[1] < t.Offsets[0] || t.Offsets[1] > int64(len(data)) || t.Offsets[1]-t.Offsets[0] != count*size {
			return nil, nil, fmt.Errorf("safetensors tensor %q: data offsets %v do not hold %v %s values in %d bytes", name, t.Offsets, t.Shape, t.DType, len(data))
		}
		ts[name] = t
	}
	return ts, data, nil
}

func dtypeSize(dt string) (int64, bool) {
	switch dt {
	case "F32", "I32":
		return 4, true
	case "F16", "BF16":
		return 2, true
	case "I8", "U8":
		return 1, true
	case "I64", "F64":
		return 8, true
	}
	return 0, false
}

// floats converts a tensor to float32.
func floats(t safetensorsTensor, data []byte) ([]float32, error) {
	b := data[t.Offsets[0]:t.Offsets[1]]
	switch t.DType {
	case "F32":
		v := make([]float32, len(b)/4)
		for i := range v {
			v[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
		}
		return v, nil
	case "F64":
		v := make([]float32, len(b)/8)
		for i := range v {
			v[i] = float32(math.Float64frombits(binary.LittleEndian.Uint64(b[8*i:])))
		}
		return v, nil
	case "F16":
		v := make([]float32, len(b)/2)
		for i := range v {
			v[i] = halfToFloat(binary.LittleEndian.Uint16(b[2*i:]))
		}
		return v, nil
	case "BF16":
		v := make([]float32, len(b)/2)
		for i := range v {
			v[i] = math.Float32frombits(uint32(binary.LittleEndian.Uint16(b[2*i:])) << 16)
		}
		return v, nil
	case "I8":
		v := make([]float32, len(b))
		for i := range v {
			v[i] = float32(int8(b[i]))
		}
		return v, nil
	case "U8":
		v := make([]float32, len(b))
		for i := range v {
			v[i] = float32(b[i])
		}
		return v, nil
	}
	return nil, fmt.Errorf("dtype %s is not supported (want F32, F16, BF16 or I8)", t.DType)
}

// ints converts an integer tensor to int32.
func ints(t safetensorsTensor, data []byte) ([]int32, error) {
	b := data[t.Offsets[0]:t.Offsets[1]]
	switch t.DType {
	case "I32":
		v := make([]int32, len(b)/4)
		for i := range v {
			v[i] = int32(binary.LittleEndian.Uint32(b[4*i:]))
		}
		return v, nil
	case "I64":
		v := make([]int32, len(b)/8)
		for i := range v {
			x := int64(binary.LittleEndian.Uint64(b[8*i:]))
			if x < 0 || x > math.MaxInt32 {
				return nil, fmt.Errorf("value %d out of range", x)
			}
			v[i] = int32(x)
		}
		return v, nil
	}
	return nil, fmt.Errorf("dtype %s is not an integer type (want I32 or I64)", t.DType)
}

// halfToFloat converts an IEEE 754 binary16 value.
func halfToFloat(h uint16) float32 {
	sign := uint32(h>>15) << 31
	exp := uint32(h>>10) & 0x1f
	frac := uint32(h) & 0x3ff
	switch {
	case exp == 0x1f: // Inf, NaN
		return math.Float32frombits(sign | 0xff<<23 | frac<<13)
	case exp != 0: // normal
		return math.Float32frombits(sign | (exp+127-15)<<23 | frac<<13)
	case frac == 0: // ±0
		return math.Float32frombits(sign)
	}
	// Subnormal: frac × 2^-24.
	f := float32(frac) * (1.0 / (1 << 24))
	if sign != 0 {
		f = -f
	}
	return f
}

func (m *Model2Vec) loadTensors(b []byte) error {
	ts, data, err := parseSafetensors(b)
	if err != nil {
		return err
	}
	name := "embeddings"
	emb, ok := ts[name]
	if !ok {
		names := make([]string, 0, len(ts))
		for n, t := range ts {
			if len(t.Shape) == 2 {
				names = append(names, n)
			}
		}
		if len(names) == 0 {
			return errors.New(`no "embeddings" tensor and no 2-D tensor`)
		}
		slices.Sort(names)
		name = names[0]
		emb = ts[name]
	}
	if len(emb.Shape) != 2 || emb.Shape[0] == 0 || emb.Shape[1] == 0 {
		return fmt.Errorf("tensor %q has shape %v, want [rows, dim]", name, emb.Shape)
	}
	rows, dim := int(emb.Shape[0]), int(emb.Shape[1])
	switch emb.DType {
	case "F32", "F16", "BF16", "I8":
	default:
		return fmt.Errorf("tensor %q has dtype %s, want F32, F16, BF16 or I8", name, emb.DType)
	}
	if m.table, err = floats(emb, data); err != nil {
		return fmt.Errorf("tensor %q: %w", name, err)
	}
	m.dim = dim
	if emb.DType == "I8" {
		for _, sn := range []string{"scales", "scale", name + "_scale", name + "_scales"} {
			st, ok := ts[sn]
			if !ok {
				continue
			}
			sc, err := floats(st, data)
			if err != nil {
				return fmt.Errorf("tensor %q: %w", sn, err)
			}
			switch len(sc) {
			case 1:
				for i := range m.table {
					m.table[i] *= sc[0]
				}
			case rows:
				for r := range rows {
					for d := range dim {
						m.table[r*dim+d] *= sc[r]
					}
				}
			default:
				return fmt.Errorf("scale tensor %q has %d values for %d rows", sn, len(sc), rows)
			}
			break
		}
	}
	if t, ok := ts["weights"]; ok && name != "weights" {
		if m.weights, err = floats(t, data); err != nil {
			return fmt.Errorf(`tensor "weights": %w`, err)
		}
	}
	if t, ok := ts["mapping"]; ok {
		if m.mapping, err = ints(t, data); err != nil {
			return fmt.Errorf(`tensor "mapping": %w`, err)
		}
	}
	return nil
}
