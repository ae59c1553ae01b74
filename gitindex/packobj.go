package gitindex

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"github.com/klauspost/compress/zlib"
	"io"
	"sync"

	"github.com/go-git/go-git/v5/plumbing"
)

// Object types as a pack stores them.
const (
	packCommit   = 1
	packTree     = 2
	packBlob     = 3
	packTag      = 4
	packOfsDelta = 6
	packRefDelta = 7
)

// maxDeltaChain bounds the deltas followed to an object's base: git's own
// limit is 4095; a longer chain is a damaged pack.
const maxDeltaChain = 10000

var packTypes = map[plumbing.ObjectType]int{plumbing.CommitObject: packCommit, plumbing.TreeObject: packTree,
	plumbing.BlobObject: packBlob, plumbing.TagObject: packTag}

// entry is the header of one object in a pack.
type entry struct {
	p        *pack
	off      int64
	typ      int
	size     int64         // of the inflated data: for a delta, of the delta
	data     int64         // where the zlib stream starts
	baseOff  int64         // packOfsDelta: the base's offset in the same pack
	baseHash plumbing.Hash // packRefDelta
}

var errPackEntry = errors.New("damaged pack entry")

// entryAt parses the object header at off.
func (p *pack) entryAt(off int64) (entry, error) {
	e := entry{p: p, off: off}
	if off < 12 || off >= p.size-20 {
		return e, errPackEntry
	}
	// A type and size of up to 10 bytes, then a base offset of up to 10
	// or a base name of 20.
	var buf [32]byte
	n, err := p.f.ReadAt(buf[:], off)
	if n == 0 {
		return e, fmt.Errorf("%w: %v", errPackEntry, err)
	}
	d := buf[:n]
	i := 0
	c := d[i]
	i++
	e.typ, e.size = int(c>>4&7), int64(c&15)
	for shift := 4; c&0x80 != 0; shift += 7 {
		if i >= len(d) || shift > 56 {
			return e, errPackEntry
		}
		c = d[i]
		i++
		e.size |= int64(c&0x7f) << shift
	}
	switch e.typ {
	case packOfsDelta:
		var back int64
		for k := 0; ; k++ {
			if i >= len(d) || k > 8 {
				return e, errPackEntry
			}
			c = d[i]
			i++
			back = back<<7 | int64(c&0x7f)
			if c&0x80 == 0 {
				break
			}
			back++
		}
		if e.baseOff = off - back; back <= 0 || e.baseOff < 12 {
			return e, errPackEntry
		}
	case packRefDelta:
		if i+20 > len(d) {
			return e, errPackEntry
		}
		copy(e.baseHash[:], d[i:])
		i += 20
	case packCommit, packTree, packBlob, packTag:
	default:
		return e, errPackEntry
	}
	e.data = off + int64(i)
	return e, nil
}

// base returns the header of a delta's base; ok is false when a
// packRefDelta's base is in no mapped pack.
func (s *packSet) base(e entry) (entry, bool, error) {
	if e.typ == packOfsDelta {
		b, err := e.p.entryAt(e.baseOff)
		return b, true, err
	}
	p, off, ok := s.find(e.baseHash)
	if !ok {
		return entry{}, false, nil
	}
	b, err := p.entryAt(off)
	return b, true, err
}

// read returns the content of the packed object h of type want (nil when
// its size exceeds max, for max >= 0) and its size. ok is false when h is in
// no mapped pack, is of another type, or has a base this reader cannot
// reach: the caller asks go-git.
func (s *packSet) read(h plumbing.Hash, want plumbing.ObjectType, max int64) (content []byte, size int64, ok bool, err error) {
	p, off, found := s.find(h)
	if !found {
		return nil, 0, false, nil
	}
	fail := func(err error) ([]byte, int64, bool, error) {
		return nil, 0, false, fmt.Errorf("read packed object %s: %w", h, err)
	}
	e, err := p.entryAt(off)
	if err != nil {
		return fail(err)
	}
	// The type is the chain's last base's; the size a delta's own header
	// gives. A delta is inflated once, here, unless it alone is over max:
	// then only as far as that header.
	size = e.size
	var delta []byte
	if e.typ == packOfsDelta || e.typ == packRefDelta {
		n := e.size
		if max >= 0 && e.size > max {
			n = min(e.size, 2*binary.MaxVarintLen64)
		}
		head, err := e.inflate(n, n == e.size)
		if err != nil {
			return fail(err)
		}
		_, k := binary.Uvarint(head)
		if k <= 0 {
			return fail(errPackEntry)
		}
		dst, m := binary.Uvarint(head[k:])
		if m <= 0 || dst > 1<<40 {
			return fail(errPackEntry)
		}
		size = int64(dst)
		if n == e.size {
			delta = head
		}
	} else if e.typ != packTypes[want] {
		return nil, 0, false, nil
	}
	if max >= 0 && size > max {
		typ, found, err := s.rootType(e)
		if err != nil {
			return fail(err)
		}
		if !found || typ != packTypes[want] {
			return nil, 0, false, nil
		}
		return nil, size, true, nil
	}
	b, typ, found, err := s.content(e, delta, 0)
	if err != nil {
		return fail(err)
	}
	if !found || typ != packTypes[want] {
		return nil, 0, false, nil
	}
	return b, size, true, nil
}

// rootType returns the type of the base at the end of e's delta chain,
// read from the headers down the chain; ok is false when a base is in no
// mapped pack.
func (s *packSet) rootType(e entry) (typ int, ok bool, err error) {
	for i := 0; e.typ == packOfsDelta || e.typ == packRefDelta; i++ {
		b, found, err := s.base(e)
		if err != nil || i > maxDeltaChain {
			return 0, false, errPackEntry
		}
		if !found {
			return 0, false, nil
		}
		e = b
	}
	return e.typ, true, nil
}

// content returns the inflated content of the object at e, applying its
// deltas, and the type of the base at the end of its chain; the buffer is
// the caller's. delta is e's inflated delta, or nil to inflate it here. ok
// is false when a base is in no mapped pack.
func (s *packSet) content(e entry, delta []byte, depth int) (b []byte, typ int, ok bool, err error) {
	if e.typ != packOfsDelta && e.typ != packRefDelta {
		b, err := e.inflate(e.size, true)
		return b, e.typ, err == nil, err
	}
	if depth > maxDeltaChain {
		return nil, 0, false, errPackEntry
	}
	be, ok, err := s.base(e)
	if err != nil || !ok {
		return nil, 0, ok, err
	}
	base, typ, hit := s.cache.get(be.p, be.off)
	if !hit {
		if base, typ, ok, err = s.content(be, nil, depth+1); err != nil || !ok {
			return nil, 0, ok, err
		}
		s.cache.put(be.p, be.off, base, typ)
	}
	if delta == nil {
		if delta, err = e.inflate(e.size, true); err != nil {
			return nil, 0, false, err
		}
	}
	b, err = patch(base, delta)
	return b, typ, err == nil, err
}

var zlibReaders sync.Pool

// zlibReader returns a reader of the zlib stream src, from the pool that
// zlibReaders keeps; the caller puts it back.
func zlibReader(src *bytes.Reader) (io.ReadCloser, error) {
	zr, _ := zlibReaders.Get().(io.ReadCloser)
	if zr == nil {
		return zlib.NewReader(src)
	}
	if err := zr.(zlib.Resetter).Reset(src, nil); err != nil {
		return nil, err
	}
	return zr, nil
}

// inflate returns the first n bytes that the object's zlib stream
// inflates to. whole requires the stream to end there, which checks its
// checksum. The compressed bytes are read in one call, as many as zlib
// can make of the object's size at worst (its deflateBound: about 1/3300
// more and 19 bytes; read: 1/2048 more and 64). A stream longer than that
// fails to inflate, and the caller asks go-git.
func (e entry) inflate(n int64, whole bool) ([]byte, error) {
	bound := min(e.size+e.size/2048+64, e.p.size-20-e.data)
	if bound <= 0 {
		return nil, errPackEntry
	}
	buf := compressedBuf(int(bound))
	defer putCompressedBuf(buf)
	raw := (*buf)[:bound]
	if _, err := e.p.f.ReadAt(raw, e.data); err != nil {
		return nil, err
	}
	zr, err := zlibReader(bytes.NewReader(raw))
	if err != nil {
		return nil, err
	}
	defer zlibReaders.Put(zr)
	// The buffer grows with what the stream inflates to, up to n: a size
	// a damaged header inflates is never allocated before the data is.
	b := make([]byte, 0, min(n, 16<<20))
	for int64(len(b)) < n {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		k, err := zr.Read(b[len(b):min(int64(cap(b)), n)])
		b = b[:len(b)+k]
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	if int64(len(b)) != n {
		return nil, errPackEntry
	}
	if whole {
		var one [1]byte
		if k, err := zr.Read(one[:]); k != 0 || err != io.EOF {
			return nil, errPackEntry
		}
	}
	return b, nil
}

// compressedBufs keeps buffers for compressed objects; those over 4 MiB
// are not kept.
var compressedBufs sync.Pool

func compressedBuf(n int) *[]byte {
	if b, _ := compressedBufs.Get().(*[]byte); b != nil && cap(*b) >= n {
		return b
	}
	b := make([]byte, n)
	return &b
}

func putCompressedBuf(b *[]byte) {
	if cap(*b) <= 4<<20 {
		compressedBufs.Put(b)
	}
}
