// Package embed turns chunk text and queries into L2-normalised vectors.
//
// The built-in embedder (Default) runs offline inside the binary: a static
// sub-token embedding table trained by cmd/bcindex-train on (doc comment,
// function body) pairs from public code and shipped with go:embed. A
// feature-hashing embedder ("hash-v1") is kept as a weight-free fallback.
//
// The model is rebuilt with `go run ./cmd/bcindex-train all`; its corpus,
// evaluation and results are in cmd/bcindex-train/README.md.
//
// Every Embedder is deterministic and safe for concurrent use. Vectors are
// stored keyed by ID, so any change to a model's output must change its ID.
package embed

import (
	"context"
	"fmt"
	"math"
)

// Role says which side of a search a text is on. Static models may weigh
// tokens differently for queries and documents; providers may prefix them.
type Role int

const (
	// RoleDocument is a chunk of code or prose to be indexed.
	RoleDocument Role = iota
	// RoleQuery is a user's search query.
	RoleQuery
)

// String returns "document" or "query".
func (r Role) String() string {
	switch r {
	case RoleDocument:
		return "document"
	case RoleQuery:
		return "query"
	}
	return fmt.Sprintf("Role(%d)", int(r))
}

// Embedder maps texts to vectors.
type Embedder interface {
	// ID is unique per model and version, e.g. "bcindex-code-v2"; stored
	// vectors are keyed by it.
	ID() string
	// Dim is the length of every vector Embed returns.
	Dim() int
	// Embed returns one L2-normalised vector per text, in order. A text with
	// nothing to embed yields the zero vector.
	Embed(ctx context.Context, texts []string, role Role) ([][]float32, error)
}

// Limits are what one request of a remote embedder may carry, and how
// many requests it keeps in flight. An indexer fills requests up to them
// with the chunks of many blobs.
type Limits struct {
	Inputs   int // texts per request
	Bytes    int // bytes of text per request (a bound on its tokens)
	InFlight int // requests at once
}

// Limited is an Embedder whose calls become requests with Limits: a call
// of more inputs is cut into several requests, and one of fewer wastes a
// round trip.
type Limited interface {
	Embedder
	Limits() Limits
}

// ctxCheckEvery bounds how many texts are embedded between context checks;
// built-in embedders take microseconds per text.
const ctxCheckEvery = 64

// normalize scales v to unit length in place; the zero vector is left as is.
func normalize(v []float32) {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	if s == 0 {
		return
	}
	inv := float32(1 / math.Sqrt(s))
	for i := range v {
		v[i] *= inv
	}
}
