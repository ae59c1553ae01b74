package segment

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/bcindex/bcindex/lexical"
	"github.com/bcindex/bcindex/ngram"
	"github.com/bcindex/bcindex/vector"
)

// The files of a segment directory, segments/<id>/: the chunk table, the
// BM25 postings (package lexical; once per distinct content: only a row
// that is its own FirstCopy has postings, the copies have their lengths
// only), the trigrams (package ngram), the text
// blobs' bytes (ContentFile), one vector locator per model
// (VectorFileName) and the record of verified file versions.
const (
	ChunksFile = "chunks.bin"
	LexFile    = "lex.bin"
	GramsFile  = "grams.bin"
)

// ErrCorrupt is the error of a segment file that fails its checks.
var ErrCorrupt = errors.New("index is corrupt or unreadable")

// The layout of the segments under an index directory, spelled here only:
// segments/MANIFEST names the live segments, segments/<id>/ holds one, and
// an ID is the manifest's counter, zero-padded so IDs sort as numbers.

// Root is the directory that holds every segment and the manifest.
func Root(indexDir string) string { return filepath.Join(indexDir, "segments") }

// ManifestPath is the path of the manifest.
func ManifestPath(indexDir string) string { return filepath.Join(Root(indexDir), "MANIFEST") }

// ID is the name of the segment numbered n by the manifest's counter.
func ID(n int) string { return fmt.Sprintf("%08d", n) }

// Dir is the directory of segment id.
func Dir(indexDir, id string) string { return filepath.Join(Root(indexDir), id) }

// File is the path of one file of segment id.
func File(indexDir, id, name string) string { return filepath.Join(Dir(indexDir, id), name) }

// Segment is one opened, immutable segment.
type Segment struct {
	ID    string
	Table *Table
	Lex   *lexical.Index  // postings of the first copies, lengths of every row
	Grams *ngram.Index    // the blobs' trigrams, for exact search
	Text  *Content        // the text blobs' bytes, for exact search; nil in segments without
	Vec   *vector.Segment // nil when the segment has no vectors for the model
}

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

// BlobOf returns the index of row i's blob in the segment's blob table
// (0..Blobs()-1), or -1 in a corrupt table.
func (s *Segment) BlobOf(i int) int { return s.Table.blobOfRow(i) }

// FirstCopy returns the segment's first row with row i's content (i itself
// when it is the first or has no text of its own).
func (s *Segment) FirstCopy(i int) int { return s.Table.firstCopy(i) }

// CopyOf returns FirstCopy(i) and whether row i is a copy named otherwise
// than its first copy, from the copies column alone: a row's terms include
// its name's tokens, so only such a copy's terms differ from its first
// copy's.
func (s *Segment) CopyOf(i int) (first int, renamed bool) { return s.Table.copyOf(i) }

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

// Details decodes the n rows of the blob whose rows start at first, with
// their signatures and metadata (BlobSpans reads them as chunks).
func (s *Segment) Details(first, n int) ([]Row, error) { return s.Table.Details(first, n) }

// Blobs is the number of blobs in the segment.
func (s *Segment) Blobs() int { return s.Table.Nblobs }

// Close unmaps the segment's files.
func (s *Segment) Close() {
	s.Table.Close()
	if s.Lex != nil {
		s.Lex.Close()
	}
	if s.Grams != nil {
		s.Grams.Close()
	}
	s.Text.Close()
	if s.Vec != nil {
		s.Vec.Close()
	}
}

// Open maps the files of segment id with the vectors of model ("" for
// none), verifying each file the first time each version of it is mapped
// (verified.go). A missing file is an error wrapping fs.ErrNotExist, a
// vector log file gone ErrLogGone, anything else ErrCorrupt.
func Open(indexDir, id, model string) (*Segment, error) {
	st := loadStamps(Dir(indexDir, id))
	defer st.save()
	ct, err := mapTable(File(indexDir, id, ChunksFile), !st.verified(ChunksFile))
	if err != nil {
		return nil, err
	}
	st.passed(ChunksFile)
	seg := &Segment{ID: id, Table: ct}
	lex, err := lexical.Open(File(indexDir, id, LexFile))
	if err == nil {
		seg.Lex = lex
		if !st.verified(LexFile) {
			if err = lex.VerifyChecksum(); err == nil {
				st.passed(LexFile)
			}
		}
	}
	if err != nil {
		seg.Close()
		return nil, fmt.Errorf("open segment %s postings: %w: %v", id, ErrCorrupt, err)
	}
	grams, err := ngram.Open(File(indexDir, id, GramsFile))
	if err == nil {
		seg.Grams = grams
		if !st.verified(GramsFile) {
			if err = grams.VerifyChecksum(); err == nil {
				st.passed(GramsFile)
			}
		}
	}
	if err != nil {
		seg.Close()
		return nil, fmt.Errorf("open segment %s trigrams: %w: %v", id, ErrCorrupt, err)
	}
	text, err := OpenContent(File(indexDir, id, ContentFile))
	if err == nil {
		seg.Text = text
		if !st.verified(ContentFile) {
			if err = text.VerifyChecksum(); err == nil {
				st.passed(ContentFile)
			}
		}
	}
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		seg.Close()
		return nil, fmt.Errorf("open segment %s texts: %w: %v", id, ErrCorrupt, err)
	}
	if model != "" {
		vec, l, err := openVectors(indexDir, Dir(indexDir, id), VectorFileName(model), st)
		if err == nil {
			if err = mapVectors(ct, vec, l); err != nil {
				vec.Close()
			}
		}
		switch {
		case err == nil:
			seg.Vec = vec
		case errors.Is(err, ErrLogGone):
			seg.Close()
			return nil, fmt.Errorf("open segment %s vectors: %w", id, err)
		case !errors.Is(err, fs.ErrNotExist):
			seg.Close()
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

// BlobIndex finds a blob's index in the blob table.
func (s *Segment) BlobIndex(_ int, sha plumbing.Hash) int {
	i, _ := s.Table.BlobIndex(sha)
	return i
}

// VectorFileLabel inverts VectorFileName as far as it can: the model's
// label in the file name.
func VectorFileLabel(name string) string {
	s := strings.TrimSuffix(strings.TrimPrefix(name, "vec-"), ".loc")
	if i := strings.LastIndexByte(s, '-'); i > 0 && len(s)-i == 9 {
		s = s[:i]
	}
	return s
}
