package indexer

import (
	"os"
	"path/filepath"

	"github.com/bcindex/bcindex/store"
)

// storeFuture is the store being opened in the background: an indexing run
// reads and chunks its first blobs meanwhile, and waits for the store only
// to look vectors up and to write.
type storeFuture struct {
	ready chan struct{}
	store *store.Store
	err   error
}

func openStoreAsync(indexDir string) *storeFuture {
	f := &storeFuture{ready: make(chan struct{})}
	go func() {
		f.store, f.err = store.OpenStore(indexDir)
		close(f.ready)
	}()
	return f
}

// get waits for the store to be open.
func (f *storeFuture) get() (*store.Store, error) {
	<-f.ready
	return f.store, f.err
}

// close closes the store once it is open.
func (f *storeFuture) close() {
	if s, err := f.get(); err == nil {
		s.Close()
	}
}

// removeOrphans deletes segment directories that no manifest names: leftovers
// of a run that was killed before publishing. Readers only open segments the
// manifest names, and we hold the lock, so this is safe.
func (ix *Indexer) removeOrphans(m *store.Manifest) {
	live := map[string]bool{}
	for _, id := range m.Segments {
		live[id] = true
	}
	entries, _ := os.ReadDir(filepath.Join(ix.repo.IndexDir, "segments"))
	for _, e := range entries {
		if e.IsDir() && !live[e.Name()] {
			os.RemoveAll(filepath.Join(ix.repo.IndexDir, "segments", e.Name()))
		}
	}
}
