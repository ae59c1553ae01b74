package indexer

import (
	"context"
	"fmt"
	"math"

	"github.com/bcindex/bcindex/chunk"
	"github.com/bcindex/bcindex/embed"
)

// embedChunks embeds chunk texts. A text longer than the embedding budget is
// embedded as overlapping windows that each repeat the chunk's signature,
// and its vector is the normalised mean of theirs; the chunk itself keeps
// its full range.
func embedChunks(ctx context.Context, emb embed.Embedder, texts, signatures []string) ([][]float32, error) {
	inputs, owner := embedInputs(texts, signatures)
	return embedPooled(ctx, emb, inputs, owner, len(texts))
}

// embedInputs returns what is sent to the embedder for the texts: each
// text, or its windows; owner[k] is the text input k belongs to.
func embedInputs(texts, signatures []string) (inputs []string, owner []int) {
	owner = make([]int, 0, len(texts))
	for i, t := range texts {
		if len(t) <= chunk.EmbedBudget {
			inputs = append(inputs, t)
			owner = append(owner, i)
			continue
		}
		for _, w := range chunk.EmbedWindows(t, signatures[i], chunk.EmbedBudget) {
			inputs = append(inputs, w)
			owner = append(owner, i)
		}
	}
	return inputs, owner
}

// embedPooled embeds inputs in one call and pools them into n vectors by
// owner.
func embedPooled(ctx context.Context, emb embed.Embedder, inputs []string, owner []int, n int) ([][]float32, error) {
	vecs, err := emb.Embed(ctx, inputs, embed.RoleDocument)
	if err != nil {
		return nil, err
	}
	if len(vecs) != len(inputs) {
		return nil, fmt.Errorf("embedder %s returned %d vectors for %d inputs", emb.ID(), len(vecs), len(inputs))
	}
	out := make([][]float32, n)
	for k, v := range vecs {
		i := owner[k]
		if out[i] == nil {
			out[i] = make([]float32, len(v))
		}
		if len(v) != len(out[i]) {
			return nil, fmt.Errorf("embedder %s returned vectors of %d and %d dimensions", emb.ID(), len(out[i]), len(v))
		}
		for d, x := range v {
			out[i][d] += x
		}
	}
	for _, v := range out {
		var s float64
		for _, x := range v {
			s += float64(x) * float64(x)
		}
		if s > 0 {
			inv := float32(1 / math.Sqrt(s))
			for d := range v {
				v[d] *= inv
			}
		}
	}
	return out, nil
}
