package mcp

import "github.com/bcindex/bcindex/internal/safepath"

// File is a text file read at a revision.
type File = safepath.File

// ReadFile reads path at rev under the same rules as the read_file tool
// (package safepath's), serialised with the tool calls.
func (s *Server) ReadFile(rev, path string) (File, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return safepath.ReadFile(s.repo, rev, path)
}
