package cluster

import (
	"crypto/sha256"

	"github.com/google/uuid"
)

// The namespace of bcindex's UUIDs (a fixed random UUID): every object's
// identity is a name-based UUID in it, so a rerun or another machine
// computes the same IDs for the same content.
var idSpace = uuid.MustParse("7f3c2a9e-5b1d-4e8f-a6c0-2d9b4e1f8a37")

// nameID is a version-5-style UUID over the parts, separated by NUL so that
// ("ab","c") and ("a","bc") differ. SHA-256 rather than v5's SHA-1.
func nameID(parts ...string) string {
	h := sha256.New()
	h.Write(idSpace[:])
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	var u uuid.UUID
	copy(u[:], h.Sum(nil))
	u[6] = (u[6] & 0x0f) | 0x50 // version 5
	u[8] = (u[8] & 0x3f) | 0x80 // RFC 4122 variant
	return u.String()
}

// ChunkID is the UUID of the chunk object of a content hash under a model.
func ChunkID(model, contentHash string) string { return nameID("chunk", model, contentHash) }

// fileID is the UUID of a file occurrence. The model is part of it: the
// file names chunk objects of that model.
func fileID(repo, ref, model, path, blob string) string {
	return nameID("file", repo, ref, model, path, blob)
}

// refID is the UUID of a published ref.
func refID(repo, ref string) string { return nameID("ref", repo, ref) }

// fileSeq is a file's key for paging through a ref's files in a stable
// order: 52 bits of its ID, exact in a float64 (JSON numbers).
func fileSeq(id string) float64 {
	u := uuid.MustParse(id)
	var n uint64
	for _, b := range u[8:16] {
		n = n<<8 | uint64(b)
	}
	return float64(n >> 12)
}
