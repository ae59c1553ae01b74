package vector

import (
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"os"
	"runtime/debug"
	"sort"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/bcindex/bcindex/internal/checksum"
)

// Segment is a read-only, memory-mapped set of vector rows: one segment
// file ([Open]) or several regions of files, each holding one part in the
// segment file format ([OpenRegions]), read as consecutive rows. Its
// methods are safe for concurrent use; Close waits for running searches.
type Segment struct {
	mu    sync.RWMutex
	parts []part // nil after Close
	dim   int
	rows  int  // stored rows
	gaps  bool // a part but the last holds rows not a multiple of 64
	// rowVec, when set (MapRows), maps each row a caller names to the
	// stored row holding its vector, -1 for none.
	rowVec []int32
	// allowed keeps the stored rows the last mapped search scanned, for
	// the rows it allowed (rowmap.go): a kept view asks with the same
	// rows query after query.
	allowed atomic.Pointer[storedSet]
}

// part is one mapped region in the segment file format.
type part struct {
	mapping []byte // what was mapped (from a page boundary)
	body    []byte // the region's bytes after its header, up to its size
	vecs    []int8
	scales  []float32
	signs   []byte // the sign block: each row's sketch words, little-endian
	rows    int
	dim     int
	base    int // the segment row of the part's first row
	bodyCRC uint32
	cell    *sketchCell // the rows' sign-bit sketch (sketch.go)
}

// Region is where one part of a segment lies: Len bytes at offset Off of
// the file at Path, in the segment file format.
type Region struct {
	Path     string
	Off, Len int64
}

// Open maps a segment file read-only after validating its header and size.
func Open(path string) (*Segment, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("vector: open: %w", err)
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("vector: open %s: not a regular file", path)
	}
	return OpenRegions([]Region{{Path: path, Off: 0, Len: st.Size()}})
}

// OpenRegions maps the parts of a segment, in row order; all must have one
// dimension. Each part's first row is the first multiple of 64 at or after
// the end of the part before, so that a scan's 64-row blocks never
// straddle two parts: after a part whose rows are not a multiple of 64
// (the last of another segment's parts, which a segment may share), the
// rows up to the next multiple are a gap that holds no vector (Stored
// counts it; Row answers none; MapRows refuses to map a row to it).
func OpenRegions(regions []Region) (*Segment, error) {
	s := &Segment{}
	for i, r := range regions {
		p, err := mapPart(r)
		if err != nil {
			s.unmap()
			return nil, err
		}
		if i > 0 && p.dim != s.dim {
			release(p.mapping)
			s.unmap()
			return nil, fmt.Errorf("vector: open %s: part %d has dimension %d, part 0 has %d", r.Path, i, p.dim, s.dim)
		}
		s.dim = p.dim
		p.base = int(alignUp(int64(s.rows), 64))
		s.gaps = s.gaps || p.base != s.rows
		s.rows = p.base + p.rows
		s.parts = append(s.parts, p)
	}
	if len(s.parts) == 0 {
		return nil, fmt.Errorf("vector: open: no parts")
	}
	return s, nil
}

// mapPart validates a region's header and size and maps it.
func mapPart(r Region) (part, error) {
	fail := func(format string, args ...any) (part, error) {
		return part{}, fmt.Errorf("vector: open %s: "+format, append([]any{r.Path}, args...)...)
	}
	f, err := os.Open(r.Path)
	if err != nil {
		return part{}, fmt.Errorf("vector: open: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return fail("%w", err)
	}
	if r.Off < 0 || r.Len < headerSize || r.Off > st.Size()-r.Len {
		return fail("region of %d bytes at %d does not fit the file's %d bytes (truncated)", r.Len, r.Off, st.Size())
	}
	hb := make([]byte, headerSize)
	if _, err := f.ReadAt(hb, r.Off); err != nil && err != io.EOF {
		return fail("read header: %w", err)
	}
	h, err := parseHeader(hb)
	if err != nil {
		return fail("%w", err)
	}
	if r.Len < h.size {
		return fail("truncated: %d bytes, header says %d", r.Len, h.size)
	}
	if r.Len > h.size {
		return fail("%d trailing bytes after the %d the header describes", r.Len-h.size, h.size)
	}
	if h.size > math.MaxInt {
		return fail("too large to map (%d bytes)", h.size)
	}
	// Maps start at a page boundary; the region starts wherever it is.
	lead := r.Off % int64(os.Getpagesize())
	data, cell, err := acquire(f, r.Path, st, r.Off-lead, int(lead+h.size))
	if err != nil {
		return fail("mmap: %w", err)
	}
	seg := data[lead:]
	p := part{mapping: data, body: seg[headerSize:h.size], rows: h.rows, dim: h.dim, bodyCRC: h.bodyCRC, cell: cell}
	if n := h.rows * h.dim; n > 0 {
		p.vecs = unsafe.Slice((*int8)(unsafe.Pointer(&seg[h.vecOff])), n)
	}
	if h.rows > 0 {
		p.signs = seg[h.signOff:h.size:h.size]
		sb := seg[h.scaleOff:h.signOff]
		if littleEndian && uintptr(unsafe.Pointer(&sb[0]))%4 == 0 {
			p.scales = unsafe.Slice((*float32)(unsafe.Pointer(&sb[0])), h.rows)
		} else {
			p.scales = make([]float32, h.rows)
			for i := range p.scales {
				p.scales[i] = math.Float32frombits(binary.LittleEndian.Uint32(sb[4*i:]))
			}
		}
	}
	return p, nil
}

var littleEndian = func() bool {
	x := uint16(1)
	return *(*byte)(unsafe.Pointer(&x)) == 1
}()

// Len returns the number of rows: those MapRows mapped, or else the
// stored ones.
func (s *Segment) Len() int {
	if s.rowVec != nil {
		return len(s.rowVec)
	}
	return s.rows
}

// Dim returns the vector dimension.
func (s *Segment) Dim() int { return s.dim }

// Parts returns how many parts the segment has.
func (s *Segment) Parts() int { return len(s.parts) }

// PartLen returns how many rows part i holds (0 for no such part).
func (s *Segment) PartLen(i int) int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if i < 0 || i >= len(s.parts) {
		return 0
	}
	return s.parts[i].rows
}

// Verify checks each part's body against its header's CRC-32C: a flipped
// byte in a vector or a scale is an error, never a silently wrong score. It
// reads every byte, at about memory bandwidth.
func (s *Segment) Verify() error {
	s.mu.RLock()
	n := len(s.parts)
	s.mu.RUnlock()
	if n == 0 {
		return fmt.Errorf("vector: verify: segment is closed")
	}
	for i := range n {
		if err := s.VerifyPart(i); err != nil {
			return err
		}
	}
	return nil
}

// VerifyPart checks one part's body, as Verify does for all.
func (s *Segment) VerifyPart(i int) (err error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.parts == nil || i < 0 || i >= len(s.parts) {
		return fmt.Errorf("vector: verify: no part %d", i)
	}
	defer guardFault(debug.SetPanicOnFault(true), &err)
	p := &s.parts[i]
	if got := checksum.Sum(p.body); got != p.bodyCRC {
		return fmt.Errorf("vector: part %d: checksum mismatch (stored %08x, computed %08x)", i, p.bodyCRC, got)
	}
	return nil
}

// partOf returns the part holding row r (0 <= r < s.rows), or, for a row
// in the gap before a part, that part (r < its base).
func (s *Segment) partOf(r int) *part {
	i := sort.Search(len(s.parts), func(i int) bool { return s.parts[i].base+s.parts[i].rows > r })
	return &s.parts[i]
}

// Close unmaps the parts. Searches after Close return nil. Closing twice is
// a no-op.
func (s *Segment) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.unmap()
}

func (s *Segment) unmap() error {
	var first error
	for _, p := range s.parts {
		if err := release(p.mapping); err != nil && first == nil {
			first = err
		}
	}
	s.parts = nil
	return first
}
