package segment

import (
	"os"
	"path/filepath"
	"slices"

	"golang.org/x/sync/errgroup"

	"github.com/bcindex/bcindex/internal/atomicfile"
	"github.com/bcindex/bcindex/lexical"
	"github.com/bcindex/bcindex/ngram"
	"github.com/bcindex/bcindex/vector"
)

// Writer accumulates one segment, blob by blob: the chunk table, the
// postings of the rows with text of their own, once per content (a row
// that repeats an earlier row's content hash, a copy in the copies
// column, keeps only its length; see Append) and the blobs' trigrams.
// Vectors are encoded here (EncodeVectors) and stored by the store in its
// value log; the segment's locators name where (WriteLocators), and are
// written before the other files (WriteFiles).
type Writer struct {
	Table TableWriter
	Lex   *lexical.Writer
	Grams *ngram.Writer
	Text  ContentWriter
	// firsts is the first row of each content hash added: the rows the
	// copies column will name, which alone get postings.
	firsts map[[16]byte]int
}

// NewWriter returns the writer of one segment, its postings sized for
// about terms distinct terms.
func NewWriter(terms int) *Writer {
	return &Writer{Lex: lexical.NewWriterSize(terms), Grams: ngram.NewWriter(), firsts: map[[16]byte]int{}}
}

// firstCopy returns the row the copies column will name for row (numbered
// in the writer) with text of its own and content hash h: the first row
// added with h, row itself when it is the first. It remembers row as
// h's first.
func (w *Writer) firstCopy(row int, h [16]byte) int {
	if h == ([16]byte{}) {
		return row
	}
	if w.firsts == nil {
		w.firsts = map[[16]byte]int{}
	}
	if f, ok := w.firsts[h]; ok {
		return f
	}
	w.firsts[h] = row
	return row
}

// Rows is the number of rows added.
func (w *Writer) Rows() int { return len(w.Table.Rows) }

// Blobs is the number of blobs added.
func (w *Writer) Blobs() int { return len(w.Table.Blobs) }

// Add adds one blob's rows (their parents numbered from Rows() before the
// call), each row's terms (nil: no text of its own), the blob's trigrams
// (nil: none), whether it is binary, and its text as StoreText stores it
// (no bytes: none kept). A row with text whose content hash an earlier row
// of the segment has is a copy: the postings are the first copy's, the
// row keeps its length only.
func (w *Writer) Add(sha [20]byte, info BlobInfo, rows []Row, tokens [][]string, grams []uint32, binary bool, text Stored) error {
	base := w.Rows()
	for i := range max(len(rows), len(tokens)) {
		// Every row with text counts for the copies, as in the column.
		isCopy := i < len(rows) && rows[i].Indexed && w.firstCopy(base+i, rows[i].Hash) != base+i
		switch {
		case i >= len(tokens) || tokens[i] == nil:
		case isCopy:
			w.Lex.AddLength(base+i, countTokens(tokens[i]))
		default:
			w.Lex.Add(base+i, tokens[i])
		}
	}
	if grams != nil {
		w.Grams.Add(sha, grams, binary)
	} else if binary {
		w.Grams.AddBinary(sha)
	}
	w.Table.AddBlob(sha, info, rows)
	return w.Text.Add(sha, text, int(info.Size))
}

// countTokens is the length Add gives tokens: the non-empty ones.
func countTokens(tokens []string) int {
	n := 0
	for _, t := range tokens {
		if t != "" {
			n++
		}
	}
	return n
}

// VectorRows are vectors of one model: for every row of a segment, or, as
// stored (StoredVectors), one per distinct content.
type VectorRows struct {
	Dim    int
	Q      [][]int8
	Scales []float32
}

// EncodedVectors are one model's vectors of a segment as the parts Badger
// stores, and once stored, where they are.
type EncodedVectors struct {
	Dim, Rows int
	Parts     [][]byte
	Sizes     []int64 // each part without its padding
	Locs      []PartLoc
	// Shared are other segments' parts whose vectors the segment shares,
	// after its own (Locs); Slots, with them, where each distinct content's
	// vector is (Locator.Slots).
	Shared []PartLoc
	Slots  []uint32
}

// EncodeVectors encodes each vector file's rows as parts (keyed by file
// name), releasing the rows of each part once it is encoded; each part
// takes at least minPart bytes (padded), as the store's log needs.
func EncodeVectors(vecs map[string]*VectorRows, minPart int) (map[string]*EncodedVectors, error) {
	out := map[string]*EncodedVectors{}
	for name, v := range vecs {
		e := &EncodedVectors{Dim: v.Dim, Rows: len(v.Q)}
		per := vector.PartRows(v.Dim)
		for lo := 0; lo == 0 || lo < len(v.Q); lo += per {
			hi := min(len(v.Q), lo+per)
			p, err := vector.EncodeParts(v.Dim, v.Q[lo:hi], v.Scales[lo:hi], minPart)
			if err != nil {
				return nil, err
			}
			clear(v.Q[lo:hi])
			e.Parts = append(e.Parts, p[0])
			e.Sizes = append(e.Sizes, vector.EncodedSize(v.Dim, hi-lo))
		}
		out[name] = e
	}
	return out, nil
}

// WriteLocators writes a new segment's vector locators (one per model,
// keyed by file name), first of its files: the store records the parts it
// wrote as verified, once closed, in the segments whose locators name them.
func WriteLocators(dir string, enc map[string]*EncodedVectors) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for name, e := range enc {
		l := &Locator{Dim: e.Dim, Rows: e.Rows, Parts: append(slices.Clip(e.Locs), e.Shared...), Slots: e.Slots}
		if e.Slots != nil {
			l.Rows = len(e.Slots)
		}
		if err := WriteLocator(dir, name, l); err != nil {
			return err
		}
	}
	return nil
}

// WriteFiles completes a segment directory (after WriteLocators): chunk
// table, postings, trigrams and texts, each written atomically, then the
// directory synced and the files recorded as verified.
func (w *Writer) WriteFiles(dir string) error {
	seg, lex, grams := &w.Table, w.Lex, w.Grams
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	// The files are independent: encoding one (sorting the postings,
	// compressing details) overlaps with writing and syncing the other.
	var g errgroup.Group
	g.Go(func() error { return atomicfile.Write(filepath.Join(dir, ChunksFile), seg.Encode()) })
	g.Go(func() error { return lex.WriteFile(filepath.Join(dir, LexFile)) })
	g.Go(func() error {
		data, err := grams.Encode(len(seg.Blobs), seg.BlobIndex())
		if err != nil {
			return err
		}
		return atomicfile.Write(filepath.Join(dir, GramsFile), data)
	})
	g.Go(func() error {
		return w.Text.WriteFile(filepath.Join(dir, ContentFile), len(seg.Blobs), seg.BlobIndex())
	})
	if err := g.Wait(); err != nil {
		return err
	}
	if err := SyncDir(dir); err != nil {
		return err
	}
	RecordWritten(dir, ChunksFile, LexFile, GramsFile, ContentFile)
	return nil
}

// SyncDir syncs a directory, so that the files written in it stay.
func SyncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}
