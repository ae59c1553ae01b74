package store

import (
	"github.com/go-git/go-git/v5/plumbing"

	"github.com/bcindex/bcindex/exact"
)

// MayHold is MayContain for a reader of binary blobs too (git log -S
// counts matches in them): it is false only for a blob whose trigram
// postings prove it holds no match; a binary blob, which has none, gives
// true. Like ExactFilter, it is not safe for concurrent use.
func (s *Snapshot) MayHold(q *exact.Query) func(sha plumbing.Hash) bool {
	f := s.ExactFilter(q)
	return func(sha plumbing.Hash) bool {
		c, _ := f(sha)
		return c != RuledOut || !s.hasGrams(sha)
	}
}

// hasGrams reports whether the segment ExactFilter reads a blob from holds
// its trigrams: ExactFilter rules out a blob without them only because it
// is binary.
func (s *Snapshot) hasGrams(sha plumbing.Hash) bool {
	for i := len(s.Segments) - 1; i >= 0; i-- {
		seg := s.Segments[i]
		if b, ok := seg.Table.BlobIndex(sha); ok {
			_, ok = seg.Grams.BlobDoc(b)
			return ok
		}
	}
	return false
}
