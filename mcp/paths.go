package mcp

import (
	"errors"
	"fmt"

	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/internal/safepath"
)

// Path safety is package safepath's: tools never touch the file system, a
// path names an entry of the revision's tree listing and nothing else, and
// what is refused is refused with an error that says why. The tools add
// only the name of the tool to use instead.

// openTree resolves rev and lists its tree.
func (s *Server) openTree(rev string) (*safepath.Tree, error) {
	return safepath.Open(s.repo, rev)
}

// fileAt resolves rev, finds path in its tree and reads the file as text.
func (s *Server) fileAt(rev, path string) (*safepath.Tree, gitindex.Entry, []byte, error) {
	t, err := s.openTree(rev)
	if err != nil {
		return nil, gitindex.Entry{}, nil, err
	}
	e, content, err := t.ReadFile(path)
	if errors.Is(err, safepath.ErrIsDir) {
		err = fmt.Errorf("%w: use list_directory", err)
	}
	return t, e, content, err
}

// dirAt resolves rev and a directory argument of its tree.
func (s *Server) dirAt(rev, path string) (*safepath.Tree, string, error) {
	t, err := s.openTree(rev)
	if err != nil {
		return nil, "", err
	}
	dir, err := t.Dir(path)
	if errors.Is(err, safepath.ErrIsFile) {
		err = fmt.Errorf("%w: use read_file or file_chunks", err)
	}
	return t, dir, err
}
