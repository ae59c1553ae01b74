package store

import (
	"fmt"

	"github.com/bits-and-blooms/bitset"
	"github.com/go-git/go-git/v5/plumbing"

	"github.com/bcindex/bcindex/exact"
	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/segment"
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
	// cands, for a blob indexed in pieces and a plan marked Lines, are
	// the segment's candidate documents, among them the blob's pieces'
	// (documents lo to hi), for TextPiecesAt.
	cands  *bitset.BitSet
	lo, hi int
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
			if cands[i] != nil && q.Lines {
				if at.lo, at.hi = seg.Grams.PieceDocs(b); at.lo < at.hi {
					at.cands = cands[i]
				}
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

// TextPiecesAt is TextAt for a search that reads only the selected lines
// of a blob (git grep without context lines), at where ExactFilterAt found
// it for a plan marked Lines: of a blob kept in pieces (ngram.Bounds),
// only the pieces whose trigrams may hold a match are decoded, into their
// place in the blob's bytes, and returned; a match cannot lie in the
// others, whose bytes are left as buf held them. pieces is nil when the
// whole blob was read.
func (s *Snapshot) TextPiecesAt(sha plumbing.Hash, at BlobAt, buf []byte) (content []byte, pieces []segment.Piece, ok bool, err error) {
	if s == nil || at.cands == nil || at.seg <= 0 || at.seg > len(s.Segments) {
		content, ok, err = s.TextAt(sha, at, buf)
		return content, nil, ok, err
	}
	seg := s.Segments[at.seg-1]
	n := at.hi - at.lo
	cand := 0
	for d := at.lo; d < at.hi; d++ {
		if at.cands.Test(uint(d)) {
			cand++
		}
	}
	// A blob whose stored pieces are not the trigram file's (or all of
	// whose pieces may match) is read whole.
	if seg.Text == nil || cand == n || seg.Text.PieceCount(at.blob) != n {
		content, ok, err = s.TextAt(sha, at, buf)
		return content, nil, ok, err
	}
	content, pieces, ok, err = seg.Text.TextPieces(at.blob, buf, func(k int) bool { return at.cands.Test(uint(at.lo + k)) })
	if err != nil {
		return nil, nil, false, fmt.Errorf("read segment %s texts: %w", seg.ID, err)
	}
	if !ok {
		content, ok, err = s.Text(sha, buf)
		return content, nil, ok, err
	}
	return content, pieces, true, nil
}
