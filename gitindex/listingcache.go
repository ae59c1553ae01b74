package gitindex

import (
	"encoding/binary"
	"io"
	"os"
	"path/filepath"

	"github.com/bcindex/bcindex/internal/atomicfile"
	"github.com/bcindex/bcindex/internal/checksum"
	"github.com/go-git/go-git/v5/plumbing"
)

// ListingPath is where the listing of tree is cached.
func ListingPath(indexDir string, tree plumbing.Hash) string {
	s := tree.String()
	return filepath.Join(indexDir, "trees", s[:2], s[2:])
}

// ListingCached reports whether the listing of tree is cached, in its
// listing file or in a pack (without reading or checking it).
func ListingCached(indexDir string, tree plumbing.Hash) bool {
	if _, err := os.Stat(ListingPath(indexDir, tree)); err == nil {
		return true
	}
	return treePacksOf(indexDir).has(tree)
}

// writeListing caches l in its listing file: as its changes against
// l.base when they are few, else in full (and l becomes a base for the
// listings derived from it). A history run writes a pack instead
// (packWriter).
func writeListing(indexDir string, l *Listing) error {
	if b := l.base; b != nil {
		gone, changed := listingDelta(b.Entries, l.Entries)
		if (len(gone)+len(changed))*maxDeltaShare <= len(b.Entries) {
			l.setDelta(b, gone, changed)
			l.chain = b.chain + 1
			buf := append([]byte(deltaMagic), b.Tree[:]...)
			buf = appendPaths(buf, gone)
			buf = appendEntries(buf, changed)
			buf = binary.LittleEndian.AppendUint32(buf, checksum.Sum(buf))
			return atomicfile.Cache(ListingPath(indexDir, l.Tree), buf)
		}
		l.base = nil
	}
	l.setDelta(l, nil, nil)
	l.chain = 1
	buf := make([]byte, 0, 64+len(l.Entries)*80)
	buf = append(buf, ListingMagic...)
	buf = appendEntries(buf, l.Entries)
	buf = binary.LittleEndian.AppendUint32(buf, checksum.Sum(buf))
	return atomicfile.Cache(ListingPath(indexDir, l.Tree), buf)
}

// derivedListing returns an empty listing of tree to be derived from from:
// it will be cached against from's base, or from itself when from is
// stored in full.
func derivedListing(tree plumbing.Hash, from *Listing, n int) *Listing {
	base := from.base
	if base == nil {
		base = from
	}
	return &Listing{Tree: tree, Entries: make([]Entry, 0, n), base: base}
}

// listingDelta returns the paths of base that next lacks and the entries
// of next that base lacks or holds differently; both are sorted by path.
func listingDelta(base, next []Entry) (gone []string, changed []Entry) {
	i, j := 0, 0
	for i < len(base) || j < len(next) {
		switch {
		case j == len(next) || i < len(base) && base[i].Path < next[j].Path:
			gone = append(gone, base[i].Path)
			i++
		case i == len(base) || next[j].Path < base[i].Path:
			changed = append(changed, next[j])
			j++
		default:
			if base[i] != next[j] {
				changed = append(changed, next[j])
			}
			i++
			j++
		}
	}
	return gone, changed
}

// applyDelta returns the entries of a listing read as a delta: its base's
// without the ones it dropped, with those that differ merged in.
func applyDelta(base []Entry, dropped []int32, differs []Entry) []Entry {
	out := make([]Entry, 0, len(base)+len(differs)-len(dropped))
	d, c := 0, 0
	for b, e := range base {
		for c < len(differs) && differs[c].Path < e.Path {
			out = append(out, differs[c])
			c++
		}
		if d < len(dropped) && int(dropped[d]) == b {
			d++
			continue
		}
		out = append(out, e)
	}
	return append(out, differs[c:]...)
}

// appendEntries appends a count and the entries, each path front-coded
// against the previous one (paths in tree order share their directories).
func appendEntries(buf []byte, es []Entry) []byte {
	buf = binary.AppendUvarint(buf, uint64(len(es)))
	prev := ""
	for _, e := range es {
		buf = appendPath(buf, prev, e.Path)
		buf = append(buf, e.Blob[:]...)
		buf = append(buf, SkipCode(e.Skip))
		prev = e.Path
	}
	return buf
}

// appendPaths appends a count and the front-coded paths.
func appendPaths(buf []byte, ps []string) []byte {
	buf = binary.AppendUvarint(buf, uint64(len(ps)))
	prev := ""
	for _, p := range ps {
		buf = appendPath(buf, prev, p)
		prev = p
	}
	return buf
}

// appendPath appends the length of the prefix p shares with prev, then the
// length and bytes of the rest.
func appendPath(buf []byte, prev, p string) []byte {
	shared := 0
	for shared < len(prev) && shared < len(p) && prev[shared] == p[shared] {
		shared++
	}
	buf = binary.AppendUvarint(buf, uint64(shared))
	buf = binary.AppendUvarint(buf, uint64(len(p)-shared))
	return append(buf, p[shared:]...)
}

// ListingBase returns the base tree of a listing cached as a delta in its
// listing file, or false for a listing stored in full, packed or
// unreadable.
func ListingBase(indexDir string, tree plumbing.Hash) (plumbing.Hash, bool) {
	f, err := os.Open(ListingPath(indexDir, tree))
	if err != nil {
		return plumbing.ZeroHash, false
	}
	defer f.Close()
	head := make([]byte, len(deltaMagic)+len(plumbing.ZeroHash))
	if _, err := io.ReadFull(f, head); err != nil || string(head[:len(deltaMagic)]) != deltaMagic {
		return plumbing.ZeroHash, false
	}
	var h plumbing.Hash
	copy(h[:], head[len(deltaMagic):])
	return h, true
}
