package store

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"

	"github.com/bcindex/bcindex/segment"
)

// The summary index (summaries.bin in the index directory) is derived data
// for search: the generated summaries of one chat model and prompt version
// ("e/" keys) in a form a query reads without opening Badger — BM25
// postings over each summary's words and, for one embedder, a vector of
// each summary's text. Segments are immutable and summaries arrive after
// indexing, so it is a side index keyed by chunk content hash: a query
// finds a row's summary by the row's hash, whichever segment holds it.
// `git bcindex enhance` rewrites it after every run from the "e/" records;
// when its checksum fails a query leaves it out, and the next enhance run
// writes it anew.
//
//	"BCSUM001"
//	uvarint length, JSON SummaryIndexHeader
//	uvarint entry count
//	per entry, by content hash:  hash (16 B), uvarint word count,
//	                             uvarint length, JSON GeneratedSummary
//	uvarint term count; per term, sorted: uvarint length, term,
//	                             uvarint length of its postings, then
//	                             uvarint postings and per posting uvarint
//	                             entry delta and uvarint frequency
//	per entry, when Dim > 0:     Dim float32 (little endian), unit length
//	CRC-32C of all the above (4 B, little endian)
const SummaryMagic = "BCSUM001"

// SummaryIndexFile is the summary index's name in the index directory.
const SummaryIndexFile = "summaries.bin"

// ErrNoSummaryIndex is returned by OpenSummaryIndex when there is none.
var ErrNoSummaryIndex = errors.New("no summary index")

// SummaryIndexHeader says whose summaries and vectors the index holds.
type SummaryIndexHeader struct {
	Model  string `json:"model"`  // chat model that wrote the summaries
	Prompt int    `json:"prompt"` // its prompt version
	Embed  string `json:"embed,omitempty"`
	Dim    int    `json:"dim,omitempty"` // 0: no vectors
}

// GeneratedSummary is what a chat model wrote of a chunk: generated text,
// always shown marked so, never as the author's doc comment.
type GeneratedSummary struct {
	Summary   string   `json:"summary"`
	Keywords  []string `json:"keywords,omitempty"`
	Purpose   string   `json:"purpose,omitempty"`
	Model     string   `json:"model"`
	Prompt    int      `json:"prompt"`
	Generated bool     `json:"generated"`
}

// Text is what search indexes of a summary: its sentences, keywords and
// purpose.
func (g *GeneratedSummary) Text() string {
	b := []byte(g.Summary)
	for _, k := range g.Keywords {
		b = append(append(b, ' '), k...)
	}
	if g.Purpose != "" {
		b = append(append(b, ' '), g.Purpose...)
	}
	return string(b)
}

// SummaryEntry is one chunk text's summary with its vector (nil without
// an embedder).
type SummaryEntry struct {
	Hash    [16]byte
	Summary GeneratedSummary
	Vector  []float32
}

// SummaryPosting is one entry holding a term.
type SummaryPosting struct{ Entry, Freq int }

// SummaryIndex is a summary index as a query reads it: the hashes, word
// counts and term dictionary decoded, each record, postings list and
// vector left in the file's bytes until it is asked for (a query reads
// the postings of its own terms and the records of its hits only).
type SummaryIndex struct {
	Header SummaryIndexHeader
	Hashes [][16]byte
	ByHash map[[16]byte]int
	Lens   []int // words per entry
	AvgLen float64

	records  [][]byte          // per entry: its JSON GeneratedSummary
	postings map[string][]byte // term → count and (delta, frequency) uvarints
	vectors  []byte            // Dim little-endian float32 per entry
}

// Len is the number of summaries.
func (x *SummaryIndex) Len() int { return len(x.Hashes) }

// Summary decodes entry i's summary.
func (x *SummaryIndex) Summary(i int) (GeneratedSummary, error) {
	var g GeneratedSummary
	if err := json.Unmarshal(x.records[i], &g); err != nil {
		return g, fmt.Errorf("summary %x: %w: %v", x.Hashes[i], ErrCorrupt, err)
	}
	return g, nil
}

// Postings returns the entries holding term, with its frequency in each.
func (x *SummaryIndex) Postings(term string) []SummaryPosting {
	b, ok := x.postings[term]
	if !ok {
		return nil
	}
	r := &segment.Decoder{Buf: b}
	n := bounded(r)
	out := make([]SummaryPosting, 0, min(n, len(b)))
	e := 0
	for i := 0; i < n && r.Err == nil; i++ {
		e += int(r.Uint())
		f := int(r.Uint())
		if r.Err != nil || e < 0 || e >= len(x.Hashes) {
			break // the checksum held, so only a faulty writer gets here
		}
		out = append(out, SummaryPosting{e, f})
	}
	return out
}

// Vector returns entry i's vector (nil when the index holds none).
func (x *SummaryIndex) Vector(i int) []float32 {
	d := x.Header.Dim
	if d == 0 {
		return nil
	}
	v := make([]float32, d)
	raw := x.vectors[4*d*i:]
	for j := range v {
		v[j] = math.Float32frombits(binary.LittleEndian.Uint32(raw[4*j:]))
	}
	return v
}

// Dot is the dot product of entry i's vector with q, which has Dim floats,
// read in place.
func (x *SummaryIndex) Dot(i int, q []float32) float64 {
	raw := x.vectors[4*len(q)*i:]
	var dot float64
	for j, f := range q {
		dot += float64(f) * float64(math.Float32frombits(binary.LittleEndian.Uint32(raw[4*j:])))
	}
	return dot
}

// OpenSummaryIndex reads the index directory's summary index: ErrNoSummaryIndex
// when there is none, ErrCorrupt when it fails its checksum or does not
// parse.
func OpenSummaryIndex(indexDir string) (*SummaryIndex, error) {
	b, err := os.ReadFile(filepath.Join(indexDir, SummaryIndexFile))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, ErrNoSummaryIndex
	}
	if err != nil {
		return nil, fmt.Errorf("read summary index: %w", err)
	}
	x, err := decodeSummaryIndex(b)
	if err != nil {
		return nil, fmt.Errorf("read summary index %s: %w: %v (hint: git bcindex enhance writes it anew)", filepath.Join(indexDir, SummaryIndexFile), ErrCorrupt, err)
	}
	return x, nil
}
