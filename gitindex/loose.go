package gitindex

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"sync"

	"github.com/go-git/go-git/v5/plumbing"
)

// Loose objects (a branch's new commits, until git gc packs them) are read
// straight from their files. Through go-git each one is first looked up in
// the packs, then its path is resolved through a chroot (an lstat per
// component), it is inflated into a buffer grown as it goes and put in the
// object cache, and the caller copies it out once more: on a branch run,
// reading its 177 new blobs so cost as much CPU as re-chunking them, and
// its new trees were most of the tree diff's time. Here the file is read
// whole in one call and inflated once, from memory, into a buffer of the
// size its header gives, and its content is checked against the object's
// name.

// looseObjects is the set of loose objects in one objects directory, each
// objects/xx/ directory read on the first lookup of a name that starts
// with xx: a search reads a few objects and so lists a few directories,
// not every loose object of a repository that git has not packed. An
// object written later, or one that git packed and pruned since, is no
// error: the caller asks go-git.
type looseObjects struct {
	dir     string
	buckets [256]looseBucket
}

// looseBucket is the names in one objects/xx/ directory.
type looseBucket struct {
	once sync.Once
	has  map[plumbing.Hash]struct{}
}

func newLooseObjects(objectsDir string) *looseObjects { return &looseObjects{dir: objectsDir} }

// contains reports whether h was a loose object when its directory was
// read.
func (l *looseObjects) contains(h plumbing.Hash) bool {
	if l == nil {
		return false
	}
	b := &l.buckets[h[0]]
	b.once.Do(func() { b.has = scanLoose(l.dir, h[0]) })
	_, ok := b.has[h]
	return ok
}

// scanLoose lists the objects of objects/xx/ for xx = first; a packed
// repository has no such directory, so this costs one failed open.
func scanLoose(dir string, first byte) map[plumbing.Hash]struct{} {
	prefix := fmt.Sprintf("%02x", first)
	files, _ := os.ReadDir(filepath.Join(dir, prefix))
	if len(files) == 0 {
		return nil
	}
	has := make(map[plumbing.Hash]struct{}, len(files))
	for _, f := range files {
		if name := prefix + f.Name(); len(name) == 40 && plumbing.IsHash(name) {
			has[plumbing.NewHash(name)] = struct{}{}
		}
	}
	return has
}

// read returns the content of a loose object of type want (nil when its
// size exceeds max, for max >= 0) and its size. ok is false when there is
// no such loose object (gone meanwhile, or of another type): the caller asks
// go-git. The file is read whole and inflated from memory: the object is
// "type size\x00content", compressed.
func (l *looseObjects) read(h plumbing.Hash, want plumbing.ObjectType, max int64) (content []byte, size int64, ok bool, err error) {
	s := h.String()
	raw, err := readFileInto(filepath.Join(l.dir, s[:2], s[2:]), nil)
	if err != nil {
		return nil, 0, false, nil
	}
	fail := func(err error) ([]byte, int64, bool, error) {
		return nil, 0, false, fmt.Errorf("read loose object %s: %w", h, err)
	}
	zr, err := zlibReader(bytes.NewReader(raw))
	if err != nil {
		return fail(err)
	}
	defer zlibReaders.Put(zr)
	// The header is at most a type, a space, 20 digits and a NUL.
	var head [32]byte
	n, err := io.ReadFull(zr, head[:])
	if err != nil && err != io.ErrUnexpectedEOF {
		return fail(err)
	}
	sp, nul := bytes.IndexByte(head[:n], ' '), bytes.IndexByte(head[:n], 0)
	if sp < 0 || nul < sp {
		return fail(errLooseHeader)
	}
	t, err := plumbing.ParseObjectType(string(head[:sp]))
	if err != nil {
		return fail(errLooseHeader)
	}
	size, err = strconv.ParseInt(string(head[sp+1:nul]), 10, 64)
	if err != nil || size < 0 || size < int64(n-nul-1) {
		return fail(errLooseHeader)
	}
	if t != want {
		return nil, 0, false, nil
	}
	if max >= 0 && size > max {
		return nil, size, true, nil
	}
	content = make([]byte, size)
	got := copy(content, head[nul+1:n])
	if _, err := io.ReadFull(zr, content[got:]); err != nil {
		return fail(err)
	}
	// Read to the end of the stream, which checks its checksum.
	var one [1]byte
	if n, err := zr.Read(one[:]); n != 0 || err != io.EOF {
		return fail(errLooseHeader)
	}
	hasher := plumbing.NewHasher(t, size)
	hasher.Write(content)
	if got := hasher.Sum(); got != h {
		return nil, 0, false, fmt.Errorf("read loose object %s: its content hashes to %s: the object file is damaged (see git fsck)", h, got)
	}
	return content, size, true, nil
}

var errLooseHeader = errors.New("malformed object header or length")
