package gitindex

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/go-git/go-git/v5/plumbing"
)

// IndexEntry is one entry of git's index (the staging area, .git/index),
// with the file status git compares to tell whether the working tree's
// file changed since it was staged.
type IndexEntry struct {
	Path         string
	Blob         plumbing.Hash
	Mode         uint32
	Stage        int
	AssumeValid  bool // --assume-unchanged: git reads the staged blob
	SkipWorktree bool // sparse checkout: not in the working tree
	IntentToAdd  bool // git add -N: nothing staged yet
	ctimeSec     uint32
	ctimeNsec    uint32
	mtimeSec     uint32
	mtimeNsec    uint32
	ino          uint32
	size         uint32
}

// Regular reports whether the entry is a file (not a symlink or a
// submodule).
func (e *IndexEntry) Regular() bool { return e.Mode&0o170000 == 0o100000 }

// GitIndex is git's index as read from the file.
type GitIndex struct {
	Entries []IndexEntry // in the index's order: by path, then stage
	mtime   [2]int64     // the index file's modification time (s, ns)
}

// errIndexUnsupported is an index this reader does not read (a split
// index, a sparse index, an unknown version): the caller asks git.
var errIndexUnsupported = errors.New("unsupported index")

// ReadGitIndex reads the working tree's index file (versions 2 to 4). A
// repository without one has an empty index.
func (r *Repo) ReadGitIndex() (*GitIndex, error) {
	return r.readGitIndex(nil)
}

// gitIndexPath is the index file git reads.
func (r *Repo) gitIndexPath() string {
	if f := os.Getenv("GIT_INDEX_FILE"); f != "" {
		return f
	}
	return filepath.Join(r.GitDir, "index")
}

// readGitIndex is ReadGitIndex; check, when not nil, is given the file's
// bytes first and says whether to parse them (false: nil, nil).
func (r *Repo) readGitIndex(check func(data []byte) bool) (*GitIndex, error) {
	p := r.gitIndexPath()
	fi, err := os.Stat(p)
	if os.IsNotExist(err) {
		if check != nil {
			return nil, nil
		}
		return &GitIndex{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read git's index: %w", err)
	}
	// The last one read is kept while the file stays the same: a command
	// reads it for the files and again for their attributes.
	key := fmt.Sprintf("%s %d %d", p, fi.Size(), fi.ModTime().UnixNano())
	r.idxMu.Lock()
	defer r.idxMu.Unlock()
	if r.idxKey == key {
		return r.idx, nil
	}
	data, err := os.ReadFile(p)
	if check != nil && os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read git's index: %w", err)
	}
	if check != nil && !check(data) {
		return nil, nil
	}
	idx, err := parseGitIndex(data)
	if errors.Is(err, errIndexUnsupported) {
		return r.lsFilesIndex()
	}
	if err != nil {
		return nil, fmt.Errorf("read git's index %s: %w", p, err)
	}
	idx.mtime = [2]int64{fi.ModTime().Unix(), int64(fi.ModTime().Nanosecond())}
	r.idxKey, r.idx = key, idx
	return idx, nil
}

func parseGitIndex(data []byte) (*GitIndex, error) {
	if len(data) < 12+20 || string(data[:4]) != "DIRC" {
		return nil, errors.New("not an index file")
	}
	version := binary.BigEndian.Uint32(data[4:])
	if version < 2 || version > 4 {
		return nil, errIndexUnsupported
	}
	n := int(binary.BigEndian.Uint32(data[8:]))
	body := data[:len(data)-20]
	idx := &GitIndex{Entries: make([]IndexEntry, 0, n)}
	pos := 12
	prev := ""
	for i := 0; i < n; i++ {
		if pos+62 > len(body) {
			return nil, errors.New("truncated entry")
		}
		b := body[pos:]
		e := IndexEntry{
			ctimeSec: binary.BigEndian.Uint32(b[0:]), ctimeNsec: binary.BigEndian.Uint32(b[4:]),
			mtimeSec: binary.BigEndian.Uint32(b[8:]), mtimeNsec: binary.BigEndian.Uint32(b[12:]),
			ino: binary.BigEndian.Uint32(b[20:]), Mode: binary.BigEndian.Uint32(b[24:]),
			size: binary.BigEndian.Uint32(b[36:]),
		}
		copy(e.Blob[:], b[40:60])
		flags := binary.BigEndian.Uint16(b[60:])
		e.AssumeValid = flags&0x8000 != 0
		e.Stage = int(flags>>12) & 3
		off := 62
		if flags&0x4000 != 0 {
			if version < 3 || pos+64 > len(body) {
				return nil, errors.New("bad extended flags")
			}
			ext := binary.BigEndian.Uint16(b[62:])
			e.IntentToAdd = ext&(1<<13) != 0
			e.SkipWorktree = ext&(1<<14) != 0
			off = 64
		}
		if version == 4 {
			strip, k := binary.Uvarint(b[off:])
			if k <= 0 || int(strip) > len(prev) {
				return nil, errors.New("bad path compression")
			}
			end := bytes.IndexByte(b[off+k:], 0)
			if end < 0 {
				return nil, errors.New("truncated path")
			}
			e.Path = prev[:len(prev)-int(strip)] + string(b[off+k:off+k+end])
			pos += off + k + end + 1
		} else {
			end := bytes.IndexByte(b[off:], 0)
			if end < 0 {
				return nil, errors.New("truncated path")
			}
			e.Path = string(b[off : off+end])
			// Entries are padded with 1 to 8 NULs to a multiple of 8.
			pos += (off + end + 8) &^ 7
		}
		if e.Mode&0o170000 == 0o040000 {
			return nil, errIndexUnsupported // a sparse index's directory
		}
		prev = e.Path
		idx.Entries = append(idx.Entries, e)
	}
	// A split index keeps most entries in a shared file ("link").
	for pos+8 <= len(body) {
		sig := string(body[pos : pos+4])
		size := int(binary.BigEndian.Uint32(body[pos+4:]))
		if sig == "link" || sig == "sdir" {
			return nil, errIndexUnsupported
		}
		pos += 8 + size
	}
	return idx, nil
}

// lsFilesIndex lists the index with git when this reader cannot: without
// file status, so that every file is read from the working tree.
func (r *Repo) lsFilesIndex() (*GitIndex, error) {
	out, msg, err := r.git(context.Background(), "ls-files", "--stage", "-z")
	if err != nil {
		return nil, fmt.Errorf("git ls-files: %v: %s", err, msg)
	}
	idx := &GitIndex{}
	for _, rec := range bytes.Split([]byte(out), []byte{0}) {
		// "<mode> <sha> <stage>\t<path>"
		meta, path, ok := bytes.Cut(rec, []byte{'\t'})
		if !ok {
			continue
		}
		f := bytes.Fields(meta)
		if len(f) != 3 {
			continue
		}
		var e IndexEntry
		fmt.Sscanf(string(f[0]), "%o", &e.Mode)
		e.Blob = plumbing.NewHash(string(f[1]))
		fmt.Sscanf(string(f[2]), "%d", &e.Stage)
		e.Path = string(path)
		e.size = ^uint32(0) // never matches a file: read it
		idx.Entries = append(idx.Entries, e)
	}
	return idx, nil
}

// fileStat is what git's index records of a file (statFiles reads it).
type fileStat struct {
	regular      bool
	size         int64
	mtime, ctime [2]int64
	ino          uint32
}

// unchanged reports whether the working tree's file of e is, by git's
// own test, the blob staged: the file status recorded when it was staged
// still holds and the entry is not racily clean (changed within the index
// file's own timestamp).
func (g *GitIndex) unchanged(e *IndexEntry, st fileStat) bool {
	if e.size == ^uint32(0) || !st.regular || uint32(st.size) != e.size {
		return false
	}
	// git built without nanosecond stamps records 0 for them.
	if e.mtimeNsec == 0 {
		st.mtime[1] = 0
	}
	if st.mtime[0] != int64(e.mtimeSec) || st.mtime[1] != int64(e.mtimeNsec) ||
		st.ctime[0] != int64(e.ctimeSec) || st.ino != e.ino {
		return false
	}
	// Racily clean: the file may have changed again within the same
	// timestamp as the index was written.
	if int64(e.mtimeSec) > g.mtime[0] || int64(e.mtimeSec) == g.mtime[0] && int64(e.mtimeNsec) >= g.mtime[1] {
		return false
	}
	return true
}

// AttributesFiles lists the .gitattributes files git's index holds, from
// the top: those git reads attributes from, whatever revision it greps.
// An index that does not hold the name at all is not parsed.
func (r *Repo) AttributesFiles() ([]string, error) {
	// Version 4 compresses paths against the previous one's, which can
	// split the name; the others hold every path whole.
	idx, err := r.readGitIndex(func(data []byte) bool {
		return len(data) < 8 || binary.BigEndian.Uint32(data[4:]) == 4 || bytes.Contains(data, []byte(".gitattributes"))
	})
	if idx == nil || err != nil {
		return nil, err
	}
	var out []string
	for _, e := range idx.Entries {
		if e.Stage == 0 && IsAttributesFile(e.Path) {
			out = append(out, e.Path)
		}
	}
	return out, nil
}
