package gitindex

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	"github.com/bcindex/bcindex/internal/mmap"
	"github.com/go-git/go-git/v5/plumbing"
)

// Packed objects are read straight from the pack files of the
// repository's own objects directory, with their indexes mapped into
// memory. go-git's first lookup in a pack decodes the whole pack index and
// builds a map from every object's offset to its name, and each object it
// returns is copied through a growing buffer and hashed again for its
// cache: on a branch run that was most of the cost of reading an ancestor
// commit, the trees the branch changed and the previous versions of its
// edited files. Here an object is found by a binary search of the index's
// sorted names, its compressed bytes are read in one call and inflated
// once into a buffer of its size, and a delta is applied to its base,
// which a small cache keeps for the objects that share it. Anything else
// (a version 1 index, a base in another pack or in an alternate object
// directory, a system without mmap) is left to go-git.

// packSet is the pack files of one objects directory, opened on first use.
// A pack written later, or an object git moved meanwhile, is no error: the
// caller asks go-git.
type packSet struct {
	once  sync.Once
	dir   string
	packs []*pack
	cache *baseCache
}

// pack is one pack file, read at offsets, and its mapped version 2 index.
// The pack is not mapped: its pages would count in the process's resident
// set, and a full index reads all of them.
type pack struct {
	idx  []byte
	f    *os.File
	size int64
	n    int // objects
	res  *resources
}

// resources are what a pack holds open, released once: by close, or when
// the pack is dropped without it (a repository opened again after a
// repack).
type resources struct {
	idx   []byte
	unmap func([]byte) error
	f     *os.File
	done  bool
}

func (r *resources) release() {
	if !r.done {
		r.done = true
		r.unmap(r.idx)
		if r.f != nil {
			r.f.Close()
		}
	}
}

func newPackSet(objectsDir string) *packSet {
	return &packSet{dir: filepath.Join(objectsDir, "pack"), cache: newBaseCache(16 << 20)}
}

// open opens every pack with a version 2 index, mapping the index; a pack
// that cannot be opened or checked is skipped.
func (s *packSet) open() {
	names, _ := filepath.Glob(filepath.Join(s.dir, "pack-*.idx"))
	for _, name := range names {
		if p := openPack(name, strings.TrimSuffix(name, ".idx")+".pack"); p != nil {
			s.packs = append(s.packs, p)
		}
	}
}

// find returns the pack holding h and the object's offset in it.
func (s *packSet) find(h plumbing.Hash) (*pack, int64, bool) {
	if s == nil {
		return nil, 0, false
	}
	s.once.Do(s.open)
	for _, p := range s.packs {
		if off, ok := p.find(h); ok {
			return p, off, true
		}
	}
	return nil, 0, false
}

// close unmaps the packs; no read may run or follow.
func (s *packSet) close() {
	if s == nil {
		return
	}
	s.once.Do(func() {}) // a set never opened stays closed
	for _, p := range s.packs {
		p.close()
	}
	s.packs = nil
}

const (
	idxHeader = 8 // "\377tOc", version 2
	fanout    = 256 * 4
)

// openPack opens a pack and maps its index, or returns nil when either is
// not usable: a version 1 index, object counts that differ, or no mmap.
func openPack(idxPath, packPath string) *pack {
	idx, unmap := mapPath(idxPath)
	if idx == nil {
		return nil
	}
	res := &resources{idx: idx, unmap: unmap}
	n := 0
	if len(idx) >= idxHeader+fanout && bytes.Equal(idx[:idxHeader], []byte{0xff, 't', 'O', 'c', 0, 0, 0, 2}) {
		n = int(binary.BigEndian.Uint32(idx[idxHeader+fanout-4:]))
	}
	// names, CRCs and 4-byte offsets, then 8-byte offsets and two hashes
	if n == 0 || len(idx) < idxHeader+fanout+n*28+40 {
		res.release()
		return nil
	}
	f, err := os.Open(packPath)
	if err != nil {
		res.release()
		return nil
	}
	res.f = f
	var head [12]byte
	fi, err := f.Stat()
	if err != nil || fi.Size() < 32 {
		res.release()
		return nil
	}
	if _, err := f.ReadAt(head[:], 0); err != nil || string(head[:4]) != "PACK" || int(binary.BigEndian.Uint32(head[8:])) != n {
		res.release()
		return nil
	}
	p := &pack{idx: idx, f: f, size: fi.Size(), n: n, res: res}
	runtime.AddCleanup(p, (*resources).release, res)
	return p
}

func (p *pack) close() {
	p.res.release()
	p.idx, p.f = nil, nil
}

// find looks h up in the index: the fanout bounds the names that start
// with h's first byte, which are searched by halves.
func (p *pack) find(h plumbing.Hash) (int64, bool) {
	if p.idx == nil {
		return 0, false
	}
	fan := p.idx[idxHeader:]
	lo := 0
	if h[0] > 0 {
		lo = int(binary.BigEndian.Uint32(fan[(int(h[0])-1)*4:]))
	}
	hi := int(binary.BigEndian.Uint32(fan[int(h[0])*4:]))
	if hi > p.n || lo > hi {
		return 0, false
	}
	names := p.idx[idxHeader+fanout:]
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		switch c := bytes.Compare(names[m*20:m*20+20], h[:]); {
		case c == 0:
			return p.offset(m)
		case c < 0:
			lo = m + 1
		default:
			hi = m
		}
	}
	return 0, false
}

// offset returns the pack offset of the i-th object of the index.
func (p *pack) offset(i int) (int64, bool) {
	off32 := p.idx[idxHeader+fanout+p.n*24:]
	o := binary.BigEndian.Uint32(off32[i*4:])
	if o&0x80000000 == 0 {
		return int64(o), int64(o) < p.size
	}
	k := int(o &^ 0x80000000)
	off64 := p.idx[idxHeader+fanout+p.n*28:]
	if (k+1)*8 > len(off64)-40 {
		return 0, false
	}
	v := binary.BigEndian.Uint64(off64[k*8:])
	return int64(v), v < uint64(p.size)
}

// mapPath maps a whole file read-only; nil when it cannot.
func mapPath(p string) ([]byte, func([]byte) error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, nil
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || fi.Size() == 0 || int64(int(fi.Size())) != fi.Size() {
		return nil, nil
	}
	if !mmap.Supported {
		return nil, nil // packed objects are read through go-git
	}
	data, err := mmap.Map(f, 0, int(fi.Size()))
	if err != nil {
		return nil, nil
	}
	return data, mmap.Unmap
}
