package store

import (
	"fmt"

	"github.com/bits-and-blooms/bitset"
	"github.com/go-git/go-git/v5/plumbing"

	"github.com/bcindex/bcindex/exact"
	"github.com/bcindex/bcindex/gitindex"
)

// Coverage is what the trigram postings say of a blob for a query.
type Coverage int

const (
	Candidate Coverage = iota // may hold a match: read and verify it
	RuledOut                  // its trigrams prove it holds none
	Binary                    // binary: git grep -I passes over it, git log -S does not
	Uncovered                 // no segment has its trigrams: read and verify it
)

// ExactFilter returns what the segments' trigram postings say of each
// blob for q. Each segment's candidates are computed at the first blob it
// holds; an error is a segment whose postings could not be read. It is not
// safe for concurrent use.
func (s *Snapshot) ExactFilter(q *exact.Query) func(sha plumbing.Hash) (Coverage, error) {
	cands := make([]*bitset.BitSet, len(s.Segments))
	errs := make([]error, len(s.Segments))
	done := make([]bool, len(s.Segments))
	return func(sha plumbing.Hash) (Coverage, error) {
		for i := len(s.Segments) - 1; i >= 0; i-- {
			seg := s.Segments[i]
			b, ok := seg.Table.BlobIndex(sha)
			if !ok {
				continue
			}
			d, ok := seg.Grams.BlobDoc(b)
			if !ok {
				if seg.Grams.IsBinary(b) || seg.Table.BlobInfo(b).Skip == gitindex.SkipBinary {
					return Binary, nil
				}
				return Uncovered, nil
			}
			if !done[i] {
				done[i] = true
				cands[i], errs[i] = seg.Grams.Candidates(q)
				if errs[i] != nil {
					errs[i] = fmt.Errorf("read segment %s trigrams: %w", seg.ID, errs[i])
				}
			}
			if errs[i] != nil {
				return Candidate, errs[i]
			}
			if cands[i] == nil || cands[i].Test(uint(d)) {
				return Candidate, nil
			}
			return RuledOut, nil
		}
		return Uncovered, nil
	}
}

// MayContain returns a predicate over blobs that is false only for a blob
// the segments' trigram postings prove holds no match of q, or that is
// binary (as git grep -I and -G without --text read them); a blob no
// segment covers gives true, for the caller to read and verify.
func (s *Snapshot) MayContain(q *exact.Query) func(sha plumbing.Hash) bool {
	f := s.ExactFilter(q)
	return func(sha plumbing.Hash) bool {
		c, _ := f(sha)
		return c == Candidate || c == Uncovered
	}
}

// MayHold is MayContain for a reader of binary blobs too (git log -S
// counts matches in them): a binary blob, which has no trigrams, gives
// true.
func (s *Snapshot) MayHold(q *exact.Query) func(sha plumbing.Hash) bool {
	f := s.ExactFilter(q)
	return func(sha plumbing.Hash) bool {
		c, _ := f(sha)
		return c != RuledOut
	}
}
