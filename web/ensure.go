package web

import (
	"time"

	"github.com/bcindex/bcindex/indexer"
)

// pageLockWait is how long a page waits for a running indexer before it
// serves what is indexed (indexer.Ensure).
const pageLockWait = 30 * time.Second

// indexOptions are the indexer's options of the pages: the embedder is
// used where a page reads vectors (indexer.Ensure).
func (s *Server) indexOptions() indexer.Options {
	opts := s.opts.Index
	opts.Embedder = s.opts.Embedder
	return opts
}
