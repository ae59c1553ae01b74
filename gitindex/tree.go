package gitindex

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/gitattributes"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// Skip reasons. Path-based reasons are decided from the tree listing alone;
// content-based ones (binary, too large, generated header) when the blob is read.
const (
	SkipNone      = ""
	SkipVendored  = "vendored"
	SkipGenerated = "generated"
	SkipMinified  = "minified"
	SkipBinary    = "binary"
	SkipTooLarge  = "too-large"
	SkipSymlink   = "symlink"
	SkipSubmodule = "submodule"
)

var skipCodes = []string{SkipNone, SkipVendored, SkipGenerated, SkipMinified, SkipBinary, SkipTooLarge, SkipSymlink, SkipSubmodule}

func skipCode(reason string) byte {
	for i, r := range skipCodes {
		if r == reason {
			return byte(i)
		}
	}
	return 0
}

// Entry is one file of a tree listing.
type Entry struct {
	Path string
	Blob plumbing.Hash
	Skip string // path-based skip reason, or SkipNone
}

// Listing is the flattened file list of a tree, sorted by path.
type Listing struct {
	Tree    plumbing.Hash
	Entries []Entry
}

const listingMagic = "BCTREE3\n"

// Listing returns the flattened listing of tree, from the cache when present,
// else by walking the tree with go-git and caching the result.
func (r *Repo) Listing(tree plumbing.Hash) (*Listing, error) {
	if l, err := readListing(r.IndexDir, tree); err == nil {
		return l, nil
	}
	l, err := r.walkTree(tree)
	if err != nil && r.reopen() {
		l, err = r.walkTree(tree)
	}
	if err != nil {
		return nil, err
	}
	if err := writeListing(r.IndexDir, l); err != nil {
		return nil, err
	}
	return l, nil
}

// CachedListing returns the cached listing of tree, or an error if it has not
// been listed yet. It never touches the object database.
func (r *Repo) CachedListing(tree plumbing.Hash) (*Listing, error) {
	return readListing(r.IndexDir, tree)
}

func (r *Repo) walkTree(treeHash plumbing.Hash) (*Listing, error) {
	tree, err := r.Git.TreeObject(treeHash)
	if err != nil {
		return nil, fmt.Errorf("read tree %s: %w", treeHash, err)
	}
	l := &Listing{Tree: treeHash}
	var attrs []gitattributes.MatchAttribute
	w := object.NewTreeWalker(tree, true, nil)
	defer w.Close()
	for {
		name, e, err := w.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("walk tree %s: %w", treeHash, err)
		}
		switch e.Mode {
		case filemode.Dir:
			continue
		case filemode.Symlink:
			l.Entries = append(l.Entries, Entry{Path: name, Blob: e.Hash, Skip: SkipSymlink})
			continue
		case filemode.Submodule:
			l.Entries = append(l.Entries, Entry{Path: name, Blob: e.Hash, Skip: SkipSubmodule})
			continue
		}
		if path.Base(name) == ".gitattributes" {
			if a, err := r.readAttributes(name, e.Hash); err == nil {
				attrs = append(attrs, a...)
			}
		}
		l.Entries = append(l.Entries, Entry{Path: name, Blob: e.Hash, Skip: pathSkip(name)})
	}
	if len(attrs) > 0 {
		applyAttributes(l, attrs)
	}
	sort.Slice(l.Entries, func(i, j int) bool { return l.Entries[i].Path < l.Entries[j].Path })
	return l, nil
}

func (r *Repo) readAttributes(name string, blob plumbing.Hash) ([]gitattributes.MatchAttribute, error) {
	b, err := r.ReadBlob(blob)
	if err != nil {
		return nil, err
	}
	var domain []string
	if dir := path.Dir(name); dir != "." {
		domain = strings.Split(dir, "/")
	}
	return gitattributes.ReadAttributes(bytes.NewReader(b), domain, true)
}

// applyAttributes marks entries that .gitattributes declares linguist-vendored
// or linguist-generated.
func applyAttributes(l *Listing, attrs []gitattributes.MatchAttribute) {
	m := gitattributes.NewMatcher(attrs)
	names := []string{"linguist-vendored", "linguist-generated"}
	for i := range l.Entries {
		e := &l.Entries[i]
		if e.Skip != SkipNone {
			continue
		}
		res, ok := m.Match(strings.Split(e.Path, "/"), names)
		if !ok {
			continue
		}
		if a := res["linguist-vendored"]; a != nil && (a.IsSet() || a.Value() == "true") {
			e.Skip = SkipVendored
		} else if a := res["linguist-generated"]; a != nil && (a.IsSet() || a.Value() == "true") {
			e.Skip = SkipGenerated
		}
	}
}

// pathSkip decides from the path alone whether a file is vendored or minified.
func pathSkip(p string) string {
	for _, dir := range []string{"vendor/", "node_modules/", "third_party/", "bower_components/"} {
		if strings.HasPrefix(p, dir) || strings.Contains(p, "/"+dir) {
			return SkipVendored
		}
	}
	base := path.Base(p)
	if strings.Contains(base, ".min.") || strings.HasSuffix(base, "-min.js") || strings.HasSuffix(base, ".bundle.js") {
		return SkipMinified
	}
	switch base {
	case "package-lock.json", "yarn.lock", "pnpm-lock.yaml", "go.sum", "Cargo.lock", "poetry.lock", "composer.lock", "Gemfile.lock":
		return SkipGenerated
	}
	return SkipNone
}

func listingPath(indexDir string, tree plumbing.Hash) string {
	s := tree.String()
	return filepath.Join(indexDir, "trees", s[:2], s[2:])
}

func writeListing(indexDir string, l *Listing) error {
	buf := make([]byte, 0, 64+len(l.Entries)*80)
	buf = append(buf, listingMagic...)
	buf = binary.AppendUvarint(buf, uint64(len(l.Entries)))
	prev := ""
	for _, e := range l.Entries {
		// Paths in tree order share their directories with the previous
		// one: store the length of the shared prefix and the rest.
		shared := 0
		for shared < len(prev) && shared < len(e.Path) && prev[shared] == e.Path[shared] {
			shared++
		}
		buf = binary.AppendUvarint(buf, uint64(shared))
		buf = binary.AppendUvarint(buf, uint64(len(e.Path)-shared))
		buf = append(buf, e.Path[shared:]...)
		buf = append(buf, e.Blob[:]...)
		buf = append(buf, skipCode(e.Skip))
		prev = e.Path
	}
	buf = binary.LittleEndian.AppendUint32(buf, crc32.Checksum(buf, castagnoli))
	return writeCacheFile(listingPath(indexDir, l.Tree), buf)
}

func readListing(indexDir string, tree plumbing.Hash) (*Listing, error) {
	b, err := os.ReadFile(listingPath(indexDir, tree))
	if err != nil {
		return nil, err
	}
	if len(b) < len(listingMagic)+4 || string(b[:len(listingMagic)]) != listingMagic {
		return nil, fmt.Errorf("tree listing %s: bad header", tree)
	}
	body, sum := b[:len(b)-4], binary.LittleEndian.Uint32(b[len(b)-4:])
	if crc32.Checksum(body, castagnoli) != sum {
		return nil, fmt.Errorf("tree listing %s: checksum mismatch", tree)
	}
	d := body[len(listingMagic):]
	n, k := binary.Uvarint(d)
	if k <= 0 || n > uint64(len(d)) {
		return nil, fmt.Errorf("tree listing %s: bad count", tree)
	}
	d = d[k:]
	l := &Listing{Tree: tree, Entries: make([]Entry, 0, n)}
	prev := ""
	for i := uint64(0); i < n; i++ {
		shared, k1 := binary.Uvarint(d)
		if k1 <= 0 || shared > uint64(len(prev)) {
			return nil, fmt.Errorf("tree listing %s: corrupt entry %d", tree, i)
		}
		d = d[k1:]
		sl, k2 := binary.Uvarint(d)
		if k2 <= 0 || sl > uint64(len(d)-k2) || uint64(len(d)-k2)-sl < uint64(len(plumbing.ZeroHash)+1) {
			return nil, fmt.Errorf("tree listing %s: corrupt entry %d", tree, i)
		}
		d = d[k2:]
		var e Entry
		e.Path = prev[:shared] + string(d[:sl])
		copy(e.Blob[:], d[sl:])
		code := d[int(sl)+len(plumbing.ZeroHash)]
		if int(code) >= len(skipCodes) {
			return nil, fmt.Errorf("tree listing %s: corrupt entry %d", tree, i)
		}
		e.Skip = skipCodes[code]
		l.Entries = append(l.Entries, e)
		d = d[int(sl)+len(plumbing.ZeroHash)+1:]
		prev = e.Path
	}
	if len(d) != 0 {
		return nil, fmt.Errorf("tree listing %s: trailing bytes", tree)
	}
	return l, nil
}

// writeFileAtomic writes data to a temp file beside path, syncs it and
// renames it into place, so readers see the old file or the new one.
// castagnoli is the CRC-32C table for listing checksums.
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// writeCacheFile writes a file that can be rebuilt (a tree listing)
// atomically for concurrent readers, but without fsync: after a crash a
// damaged file fails its checksum and is rebuilt, so a sync on every run
// would buy nothing.
func writeCacheFile(p string, data []byte) error { return writeRenamed(p, data, false) }

// writeFileAtomic writes a file through a temporary file, synced before it
// is renamed into place: readers see the old content or the new, never a
// part.
func writeFileAtomic(p string, data []byte) error { return writeRenamed(p, data, true) }

func writeRenamed(p string, data []byte, sync bool) error {
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return fmt.Errorf("write %s: %w", p, err)
	}
	f, err := os.CreateTemp(filepath.Dir(p), ".tmp-"+filepath.Base(p)+"-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", p, err)
	}
	tmp := f.Name()
	_, werr := f.Write(data)
	if werr == nil && sync {
		werr = f.Sync()
	}
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(tmp, p)
	}
	if werr != nil {
		os.Remove(tmp)
		return fmt.Errorf("write %s: %w", p, werr)
	}
	return nil
}
