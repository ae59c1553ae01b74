package safepath

import (
	"fmt"

	"github.com/bcindex/bcindex/chunk/vocab"
	"github.com/bcindex/bcindex/gitindex"
)

const (
	// MaxBlobBytes is the largest blob read at all: a front end answers
	// a person or an agent, neither of whom wants 64 MiB of one file.
	MaxBlobBytes = 64 << 20
	binarySniff  = 8000 // bytes looked at for a NUL, like git
)

// File is a text file read at a revision.
type File struct {
	Path     string
	Rev      string // as asked for
	Commit   string
	Blob     string
	Language string
	Content  []byte
}

// ReadFile reads path at rev: only entries of the revision's tree, no
// absolute paths or "..", no symlinks or submodules followed, text files
// only, at most MaxBlobBytes.
func ReadFile(repo *gitindex.Repo, rev, path string) (File, error) {
	t, err := Open(repo, rev)
	if err != nil {
		return File{}, err
	}
	e, content, err := t.ReadFile(path)
	if err != nil {
		return File{}, err
	}
	return File{Path: e.Path, Rev: t.Commit.Rev, Commit: t.Commit.Hash.String(), Blob: e.Blob.String(),
		Language: vocab.DetectLanguage(e.Path, content), Content: content}, nil
}

// ReadFile resolves a path argument to a file of the tree and reads it as
// text.
func (t *Tree) ReadFile(arg string) (gitindex.Entry, []byte, error) {
	e, err := t.File(arg)
	if err != nil {
		return gitindex.Entry{}, nil, err
	}
	content, err := t.ReadText(e)
	return e, content, err
}

// ReadText reads a regular file's blob, refusing huge and binary ones.
func (t *Tree) ReadText(e gitindex.Entry) ([]byte, error) {
	size, err := t.repo.BlobSize(e.Blob)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", e.Path, err)
	}
	if size > MaxBlobBytes {
		return nil, fmt.Errorf("%s is too large to read (%d bytes; the limit is %d)", e.Path, size, MaxBlobBytes)
	}
	content, err := t.repo.ReadBlob(e.Blob)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", e.Path, err)
	}
	if IsBinary(content) {
		return nil, fmt.Errorf("%s is a binary file (%d bytes); only text files can be read", e.Path, len(content))
	}
	return content, nil
}

// IsBinary reports whether content looks binary the way git decides it: a
// NUL byte in its first 8000 bytes.
func IsBinary(content []byte) bool {
	head := content[:min(len(content), binarySniff)]
	for _, b := range head {
		if b == 0 {
			return true
		}
	}
	return false
}
