package embed

import (
	"context"
	"fmt"
	"math"
	"slices"
)

// HashID is the ID of the feature-hashing embedder.
const HashID = "hash-v1"

// hashDim is the dimension of the feature-hashing embedder.
const hashDim = 256

// Hash is a weight-free embedder: each sub-token (and each pair of adjacent
// sub-tokens) is hashed to a signed coordinate, counts are damped with
// 1+log(tf), and the sum is normalised. It needs no model and is a baseline
// and fallback, not a semantic model: it only matches shared vocabulary.
type Hash struct{}

var _ Embedder = Hash{}

// NewHash returns the feature-hashing embedder.
func NewHash() Hash { return Hash{} }

// ID returns HashID.
func (Hash) ID() string { return HashID }

// Dim returns 256.
func (Hash) Dim() int { return hashDim }

// Embed implements Embedder.
func (h Hash) Embed(ctx context.Context, texts []string, role Role) ([][]float32, error) {
	out := make([][]float32, len(texts))
	var toks []string
	var keys []uint64
	var buf []byte
	for i, t := range texts {
		if i%ctxCheckEvery == 0 {
			if err := ctx.Err(); err != nil {
				return nil, fmt.Errorf("embed %s: %w", HashID, err)
			}
		}
		buf = buf[:0]
		toks = appendTokens(toks[:0], &buf, t)
		keys = keys[:0]
		for j, tok := range toks {
			keys = append(keys, fnv64(tok, 0))
			if j > 0 {
				keys = append(keys, fnv64(tok, fnv64(toks[j-1], 0)))
			}
		}
		// Sorted: equal features form runs, and the summation order is fixed.
		slices.Sort(keys)
		v := make([]float32, hashDim)
		for j := 0; j < len(keys); {
			k, e := keys[j], j+1
			for e < len(keys) && keys[e] == k {
				e++
			}
			w := float32(1 + math.Log(float64(e-j)))
			if k>>63 != 0 {
				w = -w
			}
			v[k%hashDim] += w
			j = e
		}
		normalize(v)
		out[i] = v
	}
	return out, nil
}

// fnv64 is FNV-1a over s, chained from seed (0 for a fresh hash).
func fnv64(s string, seed uint64) uint64 {
	const (
		offset = 14695981039346656037
		prime  = 1099511628211
	)
	h := uint64(offset) ^ seed
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= prime
	}
	return h
}
