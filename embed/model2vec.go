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
	"os"
	"path/filepath"
	"strconv"
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
