package store

import (
	"errors"
	"fmt"
	"io/fs"
	"sync"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/segment"
)

// Snapshot is a consistent set of segments, opened for reading.
type Snapshot struct {
	Segments []*segment.Segment
	Model    string
	// Damaged are the live segments left out because they failed their
	// checks; the next indexing run drops them and indexes their blobs again.
	Damaged []DamagedSegment

	mu      sync.Mutex
	located map[*gitindex.Listing][]BlobLoc // Locate's results
}

// OpenSnapshot opens the live segments with the vectors of model. It never
// opens Badger, so it works while an indexer runs.
func OpenSnapshot(indexDir, model string) (*Snapshot, error) {
	// A concurrent merge may remove a segment between reading the manifest
	// and opening it; the Manifest then names a newer set, so read it again.
	// Value-log garbage collection may remove a log file that a locator
	// read just before named; the locator names the new place by then.
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ {
		m, err := ReadManifest(indexDir)
		if err != nil {
			return nil, err
		}
		s, err := openSegments(indexDir, m.Segments, model, attempt == 2)
		if err == nil {
			return s, nil
		}
		lastErr = err
		if !errors.Is(err, fs.ErrNotExist) {
			break
		}
	}
	return nil, lastErr
}

// OpenSegments opens the segments ids. One that is gone (a concurrent
// merge removed it) is an error wrapping fs.ErrNotExist, for the caller to
// read the Manifest again; one that is damaged is left out and listed in
// Damaged: its blobs are missing from the snapshot, so the next indexing
// run processes them again, and nothing it holds is served.
func OpenSegments(indexDir string, ids []string, model string) (*Snapshot, error) {
	return openSegments(indexDir, ids, model, true)
}

// openSegments is OpenSegments; unless final, a segment whose vectors'
// log file is gone is an error for the caller to try again, not damage.
func openSegments(indexDir string, ids []string, model string, final bool) (*Snapshot, error) {
	snap := &Snapshot{Model: model}
	for _, id := range ids {
		seg, err := segment.Open(indexDir, id, model)
		if errors.Is(err, segment.ErrLogGone) && final {
			snap.Damaged = append(snap.Damaged, DamagedSegment{ID: id, Err: err})
			continue
		}
		if errors.Is(err, fs.ErrNotExist) {
			snap.Close()
			return nil, err
		}
		if err != nil {
			snap.Damaged = append(snap.Damaged, DamagedSegment{ID: id, Err: err})
			continue
		}
		snap.Segments = append(snap.Segments, seg)
	}
	return snap, nil
}

// DamagedSegment is a segment that failed its checks when it was mapped.
type DamagedSegment struct {
	ID  string
	Err error
}

func (d DamagedSegment) String() string {
	return fmt.Sprintf("index segment %s is damaged (%v)", d.ID, d.Err)
}

// Close unmaps every segment.
func (s *Snapshot) Close() {
	for _, seg := range s.Segments {
		seg.Close()
	}
	s.Segments = nil
}

// BlobLoc locates a blob's rows: segment Seg, rows First..First+N-1, and
// the blob's index in that segment's blob table.
type BlobLoc struct {
	Seg      int
	First, N int
	Blob     int
}

// Locate returns where the rows of each entry's blob are, in entry order;
// Seg is -1 for a skipped entry or a blob no segment holds. A query looks
// its listing up more than once (coverage, then the rows it may see), so
// the result is kept for the snapshot's lifetime; the listing must not
// change meanwhile.
func (s *Snapshot) Locate(l *gitindex.Listing) []BlobLoc {
	s.mu.Lock()
	defer s.mu.Unlock()
	if locs, ok := s.located[l]; ok {
		return locs
	}
	shas := make([]plumbing.Hash, len(l.Entries))
	for i := range l.Entries {
		shas[i] = l.Entries[i].Blob
	}
	locs := s.locateSorted(shas, func(i int) bool { return l.Entries[i].Skip == gitindex.SkipNone })
	if s.located == nil {
		s.located = map[*gitindex.Listing][]BlobLoc{}
	}
	s.located[l] = locs
	return locs
}

// BlobRows returns an indexed blob's rows with their signatures and
// metadata (segment.BlobSpans reads them as chunks), the row of the
// first in its segment, and the blob's record; ok is false when no segment
// holds the blob, it was skipped, or its rows cannot be read.
func (s *Snapshot) BlobRows(sha plumbing.Hash) (rows []segment.Row, first int, info segment.BlobInfo, ok bool) {
	loc, found := s.FindBlob(sha)
	if !found || loc.N == 0 {
		return nil, 0, info, false
	}
	t := s.Segments[loc.Seg].Table
	info = t.BlobInfo(t.Row(loc.First).Blob)
	if info.Skip != gitindex.SkipNone {
		return nil, 0, info, false
	}
	rows, err := t.Details(loc.First, loc.N)
	return rows, loc.First, info, err == nil
}

// FindBlob returns where a blob's rows are, searching newest segments first.
func (s *Snapshot) FindBlob(sha plumbing.Hash) (BlobLoc, bool) {
	for i := len(s.Segments) - 1; i >= 0; i-- {
		t := s.Segments[i].Table
		if b, ok := t.BlobIndex(sha); ok {
			first, n := t.BlobRange(b)
			return BlobLoc{Seg: i, First: first, N: n, Blob: b}, true
		}
	}
	return BlobLoc{}, false
}
