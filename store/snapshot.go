package store

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"sync"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/bcindex/bcindex/chunk"
	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/lexical"
	"github.com/bcindex/bcindex/ngram"
	"github.com/bcindex/bcindex/vector"
)

// Segment is one opened, immutable segment.
type Segment struct {
	ID    string
	Table *chunkTable
	Lex   *lexical.Index
	Grams *ngram.Index    // the blobs' trigrams, for exact search
	Vec   *vector.Segment // nil when the segment has no vectors for the model
}

// GramsFile is the name of a segment's trigram file (package ngram).
const GramsFile = "grams.bin"

// Rows is the number of chunks in the segment.
func (s *Segment) Rows() int { return s.Table.Nrows }

// Row decodes one chunk, without its signature and metadata.
func (s *Segment) Row(i int) Row { return s.Table.Row(i) }

// RowHash returns a chunk's content hash and whether it has text of its
// own, from the hashes and copies columns without touching the row: for
// passes over every visible row.
func (s *Segment) RowHash(i int) (hash [16]byte, indexed bool) { return s.Table.rowHash(i) }

// BlobFirst returns the first row of the blob that row i belongs to (-1
// if the row names no blob of the segment).
func (s *Segment) BlobFirst(i int) int { return s.Table.firstOfRow(i) }

// FirstCopy returns the segment's first row with row i's content (i itself
// when it is the first or has no text of its own).
func (s *Segment) FirstCopy(i int) int { return s.Table.firstCopy(i) }

// RowDetail decodes one chunk with its signature and metadata, which are
// decompressed per blob: use it for the chunks shown, Row for the rest.
func (s *Segment) RowDetail(i int) Row { return s.Table.RowDetail(i) }

// Name returns one chunk's name.
func (s *Segment) Name(i int) string { return s.Table.name(i) }

// NameBytes returns one chunk's name without copying it out of the mapped
// file; the bytes are valid until the snapshot is closed.
func (s *Segment) NameBytes(i int) []byte { return s.Table.nameBytes(i) }

// BlobSHA returns the SHA of the blob at index i of the blob table.
func (s *Segment) BlobSHA(i int) plumbing.Hash { return s.Table.BlobSHA(i) }

// FindBlob returns the row range of a blob in this segment.
func (s *Segment) FindBlob(sha plumbing.Hash) (first, n int, ok bool) { return s.Table.FindBlob(sha) }

// Chunks rebuilds the chunks of the blob whose n rows start at first, as
// chunk.Split made them except that docs are clipped to what rows keep.
func (s *Segment) Chunks(first, n int) ([]chunk.Chunk, error) { return s.Table.chunks(first, n) }

// Blobs is the number of blobs in the segment.
func (s *Segment) Blobs() int { return s.Table.Nblobs }

func (s *Segment) close() {
	s.Table.Close()
	if s.Lex != nil {
		s.Lex.Close()
	}
	if s.Grams != nil {
		s.Grams.Close()
	}
	if s.Vec != nil {
		s.Vec.Close()
	}
}

// Snapshot is a consistent set of segments, opened for reading.
type Snapshot struct {
	Segments []*Segment
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
		seg, err := openSegment(indexDir, id, model)
		if errors.Is(err, ErrLogGone) && final {
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

func openSegment(indexDir, id, model string) (*Segment, error) {
	st := loadStamps(filepath.Join(indexDir, "segments", id))
	defer st.save()
	ct, err := mapChunkTable(SegmentFile(indexDir, id, "chunks.bin"), !st.verified("chunks.bin"))
	if err != nil {
		return nil, err
	}
	st.passed("chunks.bin")
	seg := &Segment{ID: id, Table: ct}
	lex, err := lexical.Open(SegmentFile(indexDir, id, "lex.bin"))
	if err == nil {
		seg.Lex = lex
		if !st.verified("lex.bin") {
			if err = lex.VerifyChecksum(); err == nil {
				st.passed("lex.bin")
			}
		}
	}
	if err != nil {
		seg.close()
		return nil, fmt.Errorf("open segment %s postings: %w: %v", id, ErrCorrupt, err)
	}
	grams, err := ngram.Open(SegmentFile(indexDir, id, GramsFile))
	if err == nil {
		seg.Grams = grams
		if !st.verified(GramsFile) {
			if err = grams.VerifyChecksum(); err == nil {
				st.passed(GramsFile)
			}
		}
	}
	if err != nil {
		seg.close()
		return nil, fmt.Errorf("open segment %s trigrams: %w: %v", id, ErrCorrupt, err)
	}
	if model != "" {
		vec, err := openVectors(indexDir, filepath.Join(indexDir, "segments", id), VectorFileName(model), st)
		switch {
		case err == nil:
			seg.Vec = vec
		case errors.Is(err, ErrLogGone):
			seg.close()
			return nil, fmt.Errorf("open segment %s vectors: %w", id, err)
		case !errors.Is(err, fs.ErrNotExist):
			seg.close()
			return nil, fmt.Errorf("open segment %s vectors: %w: %v", id, ErrCorrupt, err)
		}
	}
	return seg, nil
}

// VectorFileName is the name of a segment's locator of model's vectors,
// which also names its parts in Badger.
func VectorFileName(model string) string {
	safe := strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r == ':' || r == ' ' {
			return '_'
		}
		return r
	}, model)
	// The hash keeps IDs apart that differ only in the replaced characters.
	sum := sha256.Sum256([]byte(model))
	return fmt.Sprintf("vec-%s-%x.loc", safe, sum[:4])
}

// Close unmaps every segment.
func (s *Snapshot) Close() {
	for _, seg := range s.Segments {
		seg.close()
	}
	s.Segments = nil
}

// BlobLoc locates a blob's rows.
type BlobLoc struct {
	Seg      int
	First, N int
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
	locs := make([]BlobLoc, len(l.Entries))
	for i, e := range l.Entries {
		locs[i].Seg = -1
		if e.Skip == gitindex.SkipNone {
			if loc, ok := s.FindBlob(e.Blob); ok {
				locs[i] = loc
			}
		}
	}
	if s.located == nil {
		s.located = map[*gitindex.Listing][]BlobLoc{}
	}
	s.located[l] = locs
	return locs
}

// BlobFile returns an indexed blob as chunk.Split split it, except that
// docs are clipped to what rows keep; ok is false when no segment holds the
// blob or its rows cannot be read.
func (s *Snapshot) BlobFile(sha plumbing.Hash) (chunk.File, bool) {
	loc, ok := s.FindBlob(sha)
	if !ok || loc.N == 0 {
		return chunk.File{}, false
	}
	t := s.Segments[loc.Seg].Table
	first := t.Row(loc.First)
	info := t.BlobInfo(first.Blob)
	if info.Skip != gitindex.SkipNone {
		return chunk.File{}, false
	}
	chunks, err := t.chunks(loc.First, loc.N)
	if err != nil {
		return chunk.File{}, false
	}
	return chunk.File{Language: first.Language, Chunks: chunks, Fallback: info.Fallback, SyntaxErrors: info.SyntaxErrors}, true
}

// FindBlob returns where a blob's rows are, searching newest segments first.
func (s *Snapshot) FindBlob(sha plumbing.Hash) (BlobLoc, bool) {
	for i := len(s.Segments) - 1; i >= 0; i-- {
		if first, n, ok := s.Segments[i].FindBlob(sha); ok {
			return BlobLoc{Seg: i, First: first, N: n}, true
		}
	}
	return BlobLoc{}, false
}

// BlobIndex finds a blob's index in the blob table.
func (s *Segment) BlobIndex(_ int, sha plumbing.Hash) int {
	i, _ := s.Table.BlobIndex(sha)
	return i
}
