package mcp

import "github.com/bcindex/bcindex/chunk"

// File is a text file read at a revision.
type File struct {
	Path     string
	Rev      string // as asked for
	Commit   string
	Blob     string
	Language string
	Content  []byte
}

// ReadFile reads path at rev under the same rules as the read_file tool:
// only entries of the revision's tree, no absolute paths or "..", no
// symlinks or submodules followed, text files only, size-capped. Other
// front ends (the web page) use it so that every way in refuses the same
// paths with the same explanations.
func (s *Server) ReadFile(rev, path string) (File, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, e, content, err := s.fileAt(rev, path)
	if err != nil {
		return File{}, err
	}
	return File{Path: e.Path, Rev: t.commit.Rev, Commit: t.commit.Hash.String(), Blob: e.Blob.String(),
		Language: chunk.DetectLanguage(e.Path, content), Content: content}, nil
}
