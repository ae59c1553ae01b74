package store

import (
	"bytes"
	"io"
	"os"

	"github.com/bcindex/bcindex/segment"
)

// stamp records the files whose replacement changes what a view would
// open: the manifest (an indexing run, a merge, gc or a rebuild replaces
// it), the vector locators of its segments (value-log garbage collection
// rewrites one when it moves vectors; a run that computes a model's
// vectors for a segment writes one), and each segment's files, which are
// never written again: one written to since the view verified it (a
// flipped byte) is verified again by a view that opens it
// (segment.FileIdentity), and found damaged.
//
// The manifest and the locators are replaced by renaming a new file over
// them (internal/atomicfile), so a replaced one is another file; but the
// replaced file's inode is freed, and a later file may get its number
// back with the same size and modification time (on a file system that
// keeps whole seconds). So a stamp keeps their bytes too (a manifest is a
// few hundred bytes, a locator a few dozen, or, when its segment shares
// other segments' vectors, four bytes a content after its parts): a
// manifest written later names other segments or a later Next, a locator
// another place in the log, in its first bytes. The segment files are mapped by the view, so their inodes stay
// theirs while it is open: a rebuild that writes a segment of the same
// name writes other files.
type stamp struct {
	manifest fileStamp
	locators []string
	located  []fileStamp
	files    []string // of the segments
	ids      []string // their segment.FileIdentity
}

// segmentFiles are the files of a segment a view maps.
var segmentFiles = []string{segment.ChunksFile, segment.LexFile, segment.GramsFile, segment.ContentFile}

// fileStamp is a small file as a view read it: its identity and bytes,
// or absent (fi nil).
type fileStamp struct {
	fi os.FileInfo
	b  []byte
}

// maxStamped bounds the bytes a stamp keeps of a file: of a longer one,
// the first maxStamped (a locator's parts come first).
const maxStamped = 1 << 16

// takeStamp records the files before the snapshot is opened, so a change
// made while it opens shows as a change at the next check.
func takeStamp(indexDir, model string) stamp {
	st := stamp{manifest: readFileStamp(manifestPath(indexDir))}
	if st.manifest.fi == nil {
		return st
	}
	m, err := DecodeManifest(indexDir)
	if err != nil {
		return st
	}
	name := ""
	if model != "" {
		name = segment.VectorFileName(model)
	}
	for _, id := range m.Segments {
		for _, f := range segmentFiles {
			p := segment.File(indexDir, id, f)
			st.files = append(st.files, p)
			st.ids = append(st.ids, segment.FileIdentity(p))
		}
		if name != "" {
			p := segment.File(indexDir, id, name)
			st.locators = append(st.locators, p)
			st.located = append(st.located, readFileStamp(p))
		}
	}
	return st
}

// current reports whether every stamped file is still the one stamped:
// the same file, size, modification time and bytes, or still absent.
func (st stamp) current(indexDir string) bool {
	if st.manifest.fi == nil || !st.manifest.same(readFileStamp(manifestPath(indexDir))) {
		return false
	}
	for i, p := range st.locators {
		if !st.located[i].same(readFileStamp(p)) {
			return false
		}
	}
	for i, p := range st.files {
		if segment.FileIdentity(p) != st.ids[i] {
			return false
		}
	}
	return true
}

func readFileStamp(path string) fileStamp {
	f, err := os.Open(path)
	if err != nil {
		return fileStamp{}
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return fileStamp{}
	}
	s := fileStamp{fi: fi}
	if s.b, err = io.ReadAll(io.LimitReader(f, maxStamped)); err != nil {
		return fileStamp{} // unreadable: not the file stamped
	}
	return s
}

func (a fileStamp) same(b fileStamp) bool {
	return sameFile(a.fi, b.fi) && bytes.Equal(a.b, b.b)
}

func sameFile(a, b os.FileInfo) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return os.SameFile(a, b) && a.Size() == b.Size() && a.ModTime().Equal(b.ModTime())
}
