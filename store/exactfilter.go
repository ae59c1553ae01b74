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
	Binary                    // binary and not ruled out: git grep -I passes over it, git grep and git log -S do not
	Uncovered                 // no segment has its trigrams: read and verify it
)

// BlobAt is where a snapshot holds a blob: its segment and its index in
// that segment's chunk table. The zero value is nowhere.
type BlobAt struct {
	seg  int // the segment's index plus one
	blob int
}

// ExactFilter returns what the segments' trigram postings say of each
// blob for q. Each segment's candidates are computed at the first blob it
// holds; an error is a segment whose postings could not be read. It is not
// safe for concurrent use.
func (s *Snapshot) ExactFilter(q *exact.Query) func(sha plumbing.Hash) (Coverage, error) {
	f := s.ExactFilterAt(q)
	return func(sha plumbing.Hash) (Coverage, error) {
		c, _, err := f(sha)
		return c, err
	}
}

// ExactFilterAt is ExactFilter that also says where the blob is, for
// TextAt to read it without looking for it again.
func (s *Snapshot) ExactFilterAt(q *exact.Query) func(sha plumbing.Hash) (Coverage, BlobAt, error) {
	cands := make([]*bitset.BitSet, len(s.Segments))
	errs := make([]error, len(s.Segments))
	done := make([]bool, len(s.Segments))
	return func(sha plumbing.Hash) (Coverage, BlobAt, error) {
		for i := len(s.Segments) - 1; i >= 0; i-- {
			seg := s.Segments[i]
			b, ok := seg.Table.BlobIndex(sha)
			if !ok {
				continue
			}
			at := BlobAt{seg: i + 1, blob: b}
			d, ok := seg.Grams.BlobDoc(b)
			if !ok {
				if seg.Grams.IsBinary(b) || seg.Table.BlobInfo(b).Skip == gitindex.SkipBinary {
					return Binary, at, nil
				}
				return Uncovered, at, nil
			}
			if !done[i] {
				done[i] = true
				cands[i], errs[i] = seg.Grams.Candidates(q)
				if errs[i] != nil {
					errs[i] = fmt.Errorf("read segment %s trigrams: %w", seg.ID, errs[i])
				}
			}
			if errs[i] != nil {
				return Candidate, at, errs[i]
			}
			if cands[i] != nil && !cands[i].Test(uint(d)) {
				return RuledOut, at, nil
			}
			if seg.Grams.IsBinary(b) {
				return Binary, at, nil
			}
			return Candidate, at, nil
		}
		return Uncovered, BlobAt{}, nil
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

// Text returns a blob's bytes from the segments that keep them (see
// segment.ContentFile), in buf's memory when it is large enough: ok is
// false when none does, and the caller reads the blob from git. It is
// safe for concurrent use.
func (s *Snapshot) Text(sha plumbing.Hash, buf []byte) (content []byte, ok bool, err error) {
	if s == nil {
		return nil, false, nil
	}
	for i := len(s.Segments) - 1; i >= 0; i-- {
		seg := s.Segments[i]
		if seg.Text == nil {
			continue
		}
		b, found := seg.Table.BlobIndex(sha)
		if !found {
			continue
		}
		content, ok, err = seg.Text.Text(b, buf)
		if err != nil {
			return nil, false, fmt.Errorf("read segment %s texts: %w", seg.ID, err)
		}
		if ok {
			return content, true, nil
		}
	}
	return nil, false, nil
}

// TextAt is Text for a blob ExactFilterAt found at at, read from there
// without looking for it; a blob that segment keeps no bytes of is looked
// for in the others.
func (s *Snapshot) TextAt(sha plumbing.Hash, at BlobAt, buf []byte) (content []byte, ok bool, err error) {
	if s == nil || at.seg <= 0 || at.seg > len(s.Segments) {
		return s.Text(sha, buf)
	}
	seg := s.Segments[at.seg-1]
	if seg.Text != nil {
		content, ok, err = seg.Text.Text(at.blob, buf)
		if err != nil {
			return nil, false, fmt.Errorf("read segment %s texts: %w", seg.ID, err)
		}
		if ok {
			return content, true, nil
		}
	}
	return s.Text(sha, buf)
}
