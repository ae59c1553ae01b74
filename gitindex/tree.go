package gitindex

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/gitattributes"
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
	SkipBadPath   = "bad-path" // a path no file system could hold; see badPath
)

// GrepReads reports whether exact search reads files skipped for reason,
// as git grep does: vendored, generated and minified files are searched;
// symlinks, submodules and paths no file system holds are not. (Binary
// files are decided by content, and passed over.)
func GrepReads(reason string) bool {
	switch reason {
	case SkipNone, SkipVendored, SkipGenerated, SkipMinified:
		return true
	}
	return false
}

// SkipCodes gives each reason its byte in listing files: append only.
var SkipCodes = []string{SkipNone, SkipVendored, SkipGenerated, SkipMinified, SkipBinary, SkipTooLarge, SkipSymlink, SkipSubmodule, SkipBadPath}

func SkipCode(reason string) byte {
	for i, r := range SkipCodes {
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
	// base is the listing stored in full that this one was read or derived
	// from, when it is not stored in full itself: the cache keeps it as the
	// changes against base.
	base *Listing
	// against, when set, is the listing stored in full that this one was
	// read or written against (itself when it is stored in full); differs
	// lists this listing's entries that against lacks or holds otherwise,
	// and dropped the indexes of against's entries that this one lacks as
	// they are, both in path order, with lacks the same as a bitset.
	// Changes compares two listings of one base through them.
	against *Listing
	differs []Entry
	dropped []int32
	lacks   []uint64
	// lazy is set when Entries is not built yet (ListingsByDelta).
	lazy bool
	// chain counts the listings of the chain of deltas this one is stored
	// at the end of, the one stored in full included; 0 when it is not
	// stored.
	chain int
}

// A listing file holds the whole listing (ListingMagic) or, for a listing
// derived from another by a tree diff, its changes against a listing held
// in full (deltaMagic): with hooks on, a commit then adds a few hundred
// bytes to the cache instead of a copy of the whole tree's listing.
const (
	ListingMagic = "BCTREE3\n"
	deltaMagic   = "BCTDLT1\n"
)

// maxDeltaShare bounds a delta: a listing that differs from its base in
// more than 1/maxDeltaShare of the base's entries is stored in full.
const maxDeltaShare = 8

// Listing returns the flattened listing of tree, from the cache when present,
// else by walking the tree with go-git and caching the result.
func (r *Repo) Listing(tree plumbing.Hash) (*Listing, error) {
	l, err := readListing(r.IndexDir, tree)
	if err == nil {
		return l, nil
	}
	r.listingDamaged(err)
	return r.walkListing(tree)
}

// listingDamaged tells r.Damaged that a cached listing failed its checks
// (err; not a listing never cached, or whose base gc removed) and that the
// tree is listed again from git, which replaces it.
func (r *Repo) listingDamaged(err error) {
	if r.Damaged != nil && !errors.Is(err, fs.ErrNotExist) {
		r.Damaged(fmt.Sprintf("%v; listed the tree again from git", err))
	}
}

// walkListing walks tree with go-git and caches its listing.
func (r *Repo) walkListing(tree plumbing.Hash) (*Listing, error) {
	l, err := r.WalkTree(tree)
	if err != nil && r.reopen() {
		l, err = r.WalkTree(tree)
	}
	if err != nil {
		return nil, err
	}
	if err := writeListing(r.IndexDir, l); err != nil {
		return nil, err
	}
	return l, nil
}

// Listings lists several trees, as Listing does each, reading a cached base
// listing that several of them share once. A tree that fails leaves a nil
// listing and its error.
func (r *Repo) Listings(trees []plumbing.Hash, cachedOnly bool) ([]*Listing, []error) {
	ld := &listingLoader{dir: r.IndexDir, memo: map[plumbing.Hash]*Listing{}}
	defer ld.close()
	out, errs := make([]*Listing, len(trees)), make([]error, len(trees))
	for i, t := range trees {
		if out[i], errs[i] = ld.read(t); errs[i] == nil || cachedOnly {
			continue
		}
		r.listingDamaged(errs[i])
		out[i], errs[i] = r.walkListing(t)
	}
	return out, errs
}

// ListingsByDelta lists several trees as Listings does, but leaves the
// entries of a listing cached as a delta unbuilt: Changes reads it
// through its delta, and Full builds its entries when they are needed. A
// query over many releases or branches reads each listing this way, so
// that what it costs follows what changed between them.
func (r *Repo) ListingsByDelta(trees []plumbing.Hash, cachedOnly bool) ([]*Listing, []error) {
	ld := &listingLoader{dir: r.IndexDir, memo: map[plumbing.Hash]*Listing{}, lazy: true}
	defer ld.close()
	out, errs := make([]*Listing, len(trees)), make([]error, len(trees))
	for i, t := range trees {
		if out[i], errs[i] = ld.read(t); errs[i] == nil || cachedOnly {
			continue
		}
		r.listingDamaged(errs[i])
		out[i], errs[i] = r.walkListing(t)
	}
	return out, errs
}

// CachedListing returns the cached listing of tree, or an error if it has not
// been listed yet. It never touches the object database.
func (r *Repo) CachedListing(tree plumbing.Hash) (*Listing, error) {
	return readListing(r.IndexDir, tree)
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

// pathSkip decides from the path alone whether a file is vendored or
// minified, or cannot be indexed under its path at all.
func pathSkip(p string) string {
	if badPath(p) != "" {
		return SkipBadPath
	}
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
