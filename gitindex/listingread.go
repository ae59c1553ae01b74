package gitindex

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/bcindex/bcindex/internal/checksum"
	"github.com/go-git/go-git/v5/plumbing"
)

// CheckListing reads the cached listing of the tree named by its SHA and
// verifies its checksums (and those of the chain of deltas it is read
// through), as storewrite.Check needs.
func (r *Repo) CheckListing(tree string) error {
	_, err := readListing(r.IndexDir, plumbing.NewHash(tree))
	return err
}

// readListing reads the cached listing of tree.
func readListing(indexDir string, tree plumbing.Hash) (*Listing, error) {
	ld := &listingLoader{dir: indexDir}
	defer ld.close()
	return ld.read(tree)
}

// listingLoader reads cached listings for one caller, from listing files
// and packs (and from w, the pack being written, when set). A listing is
// stored in full or as a delta against another tree's, itself read the
// same way: a read decodes the chain of deltas back to a listing stored in
// full, its root, and applies their changes at once. With memo set, the
// listings read are kept, and so are their roots, so that listings
// sharing a root read it once and share it (Changes compares them
// through it), and so are the deltas decoded, so that listings along one
// chain decode each delta once; without, a few are kept, enough for a run
// that reads the listings of a history in order to decode one delta each.
type listingLoader struct {
	dir    string
	memo   map[plumbing.Hash]*Listing
	lazy   bool
	w      *packWriter
	buf    []byte
	packs  []*treePack       // the packs, when the loader first looked
	data   map[string][]byte // the packs read, by path
	roots  map[plumbing.Hash]*Listing
	recent map[plumbing.Hash]*resolved
	deltas map[plumbing.Hash]*packRecord // with memo: the deltas decoded
	failed map[plumbing.Hash]error       // in one read, trees no copy of which reads
}

// close drops the packs the loader read.
func (ld *listingLoader) close() {
	ld.data, ld.packs = nil, nil
}

// read returns the listing of tree. A listing read as a delta keeps its
// root (Listing.base) and how it differs from it (setDelta); with lazy
// set, its entries are left for Full to build.
func (ld *listingLoader) read(tree plumbing.Hash) (*Listing, error) {
	if l, ok := ld.memo[tree]; ok {
		return l, nil
	}
	var stack []*packRecord
	ld.failed = nil // a listing may be written between reads
	res, err := ld.resolve(tree, 0, &stack)
	if err != nil {
		return nil, err
	}
	res = res.compose(stack)
	ld.remember(tree, res)
	l := res.root
	if l.Tree != tree {
		gone, changed := res.against()
		l = &Listing{Tree: tree, base: res.root, chain: res.chain}
		l.setDelta(res.root, gone, changed)
		if l.lazy = ld.lazy; !ld.lazy {
			l.Entries = applyDelta(res.root.Entries, l.dropped, l.differs)
		}
	}
	if ld.memo != nil {
		ld.memo[tree] = l
	}
	return l, nil
}

// maxReadChain bounds the chains a read follows: a longer one, or a
// cycle, is a damaged cache.
const maxReadChain = 1024

// resolve finds the root of tree's chain and pushes the deltas on the way
// to it onto stack, the newest first. Each copy of a listing is tried in
// turn (copies) until one reads back to a sound root: a copy listed again
// from git after damage to another, or to its base, is read without a
// word. The error is a damaged copy's when there was one, else one that
// fs.ErrNotExist matches.
func (ld *listingLoader) resolve(tree plumbing.Hash, depth int, stack *[]*packRecord) (*resolved, error) {
	if depth > maxReadChain {
		return nil, fmt.Errorf("tree listing %s: chain of deltas too long", tree)
	}
	if r, ok := ld.recent[tree]; ok {
		return r, nil
	}
	if err, ok := ld.failed[tree]; ok {
		return nil, err
	}
	if l, ok := ld.roots[tree]; ok {
		return &resolved{root: l, chain: 1}, nil
	}
	if rec, ok := ld.deltas[tree]; ok {
		n := len(*stack)
		*stack = append(*stack, rec)
		r, err := ld.resolve(rec.base, depth+1, stack)
		if err == nil {
			return r, nil
		}
		*stack = (*stack)[:n]
	}
	var bad error
	for _, copy := range ld.copies(tree) {
		rec, err := copy()
		if err != nil {
			bad = worse(bad, err)
			continue
		}
		if ld.memo != nil && !rec.full {
			if ld.deltas == nil {
				ld.deltas = map[plumbing.Hash]*packRecord{}
			}
			ld.deltas[tree] = rec
		}
		if rec.full {
			l := &Listing{Tree: tree, Entries: rec.entries, chain: 1}
			l.setDelta(l, nil, nil)
			ld.keepRoot(l)
			return &resolved{root: l, chain: 1}, nil
		}
		n := len(*stack)
		*stack = append(*stack, rec)
		r, err := ld.resolve(rec.base, depth+1, stack)
		if err == nil {
			return r, nil
		}
		*stack = (*stack)[:n]
		if depth == 0 {
			err = fmt.Errorf("tree listing %s: base: %w", tree, err)
		}
		bad = worse(bad, err)
	}
	if bad == nil {
		bad = notPacked(tree)
	}
	if ld.failed == nil {
		ld.failed = map[plumbing.Hash]error{}
	}
	ld.failed[tree] = bad
	return nil, bad
}

// worse returns the error to report of two: a damaged copy's before a
// missing one's.
func worse(a, b error) error {
	if a == nil || errors.Is(a, fs.ErrNotExist) && !errors.Is(b, fs.ErrNotExist) {
		return b
	}
	return a
}

// keepRoot keeps a root read; a loader without memo keeps a few.
func (ld *listingLoader) keepRoot(l *Listing) {
	if ld.roots == nil || ld.memo == nil && len(ld.roots) >= 4 {
		ld.roots = map[plumbing.Hash]*Listing{}
	}
	ld.roots[l.Tree] = l
}

// remember keeps how tree was resolved, for a delta against it read next.
func (ld *listingLoader) remember(tree plumbing.Hash, r *resolved) {
	if ld.recent == nil || len(ld.recent) >= 64 {
		ld.recent = map[plumbing.Hash]*resolved{}
	}
	ld.recent[tree] = r
}

// copies returns a reader of each stored copy of tree's listing: in the
// packs, in the pack being written, in its listing file.
func (ld *listingLoader) copies(tree plumbing.Hash) []func() (*packRecord, error) {
	if ld.packs == nil {
		ld.packs = treePacksOf(ld.dir).current()
	}
	var out []func() (*packRecord, error)
	for _, p := range ld.packs {
		if off, n, ok := p.find(tree); ok {
			out = append(out, func() (*packRecord, error) { return ld.readPacked(p, tree, off, n) })
		}
	}
	if ld.w != nil {
		if _, ok := ld.w.recs[tree]; ok {
			out = append(out, func() (*packRecord, error) {
				b, _, err := ld.w.record(tree, ld.buf)
				if err != nil {
					return nil, err
				}
				ld.buf = b[:0]
				return decodeRecord(tree, b)
			})
		}
	}
	return append(out, func() (*packRecord, error) {
		b, err := readFileInto(ListingPath(ld.dir, tree), ld.buf)
		if cap(b) > cap(ld.buf) {
			ld.buf = b[:0]
		}
		if err != nil {
			return nil, err
		}
		return decodeListingFile(tree, b)
	})
}

// readPacked reads and decodes tree's record at off in pack p. The
// loader reads a pack whole the first time it needs it: a chain of
// deltas is a few hundred records of a pack or two.
func (ld *listingLoader) readPacked(p *treePack, tree plumbing.Hash, off int64, n int) (*packRecord, error) {
	b, ok := ld.data[p.path]
	if !ok {
		var err error
		if b, err = os.ReadFile(p.path); err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				treePacksOf(ld.dir).forget(p.path)
			}
			return nil, fmt.Errorf("tree listing %s: %w", tree, err)
		}
		if ld.data == nil {
			ld.data = map[string][]byte{}
		}
		ld.data[p.path] = b
	}
	if off+int64(n) > int64(len(b)) {
		return nil, fmt.Errorf("tree listing %s: %s: record past the end", tree, filepath.Base(p.path))
	}
	return decodeRecord(tree, b[off:off+int64(n)])
}

// decodeListingFile checks and decodes a listing file.
func decodeListingFile(tree plumbing.Hash, b []byte) (*packRecord, error) {
	if len(b) < len(ListingMagic)+4 {
		return nil, fmt.Errorf("tree listing %s: bad header", tree)
	}
	magic := string(b[:len(ListingMagic)])
	if magic != ListingMagic && magic != deltaMagic {
		return nil, fmt.Errorf("tree listing %s: bad header", tree)
	}
	body, sum := b[:len(b)-4], binary.LittleEndian.Uint32(b[len(b)-4:])
	if checksum.Sum(body) != sum {
		return nil, fmt.Errorf("tree listing %s: checksum mismatch", tree)
	}
	r := &listingReader{tree: tree, d: body[len(ListingMagic):]}
	rec := &packRecord{tree: tree, full: magic == ListingMagic}
	if rec.full {
		rec.entries = r.entries()
	} else {
		if len(r.d) < len(plumbing.ZeroHash) {
			return nil, fmt.Errorf("tree listing %s: bad header", tree)
		}
		copy(rec.base[:], r.d)
		r.d = r.d[len(rec.base):]
		rec.gone = r.paths()
		rec.entries = r.entries()
	}
	if r.err != nil {
		return nil, r.err
	}
	if len(r.d) != 0 {
		return nil, fmt.Errorf("tree listing %s: trailing bytes", tree)
	}
	return rec, nil
}
