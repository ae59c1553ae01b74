package indexer

import (
	"os"
	"sync"

	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/segment"
	"github.com/bcindex/bcindex/store"
	"github.com/bcindex/bcindex/store/storewrite"
)

// storeFuture is the store being opened in the background: an indexing run
// reads and chunks its first blobs meanwhile, and waits for the store only
// to look vectors up and to write.
type storeFuture struct {
	ready chan struct{}
	store *storewrite.Store
	err   error

	closing sync.Once
	closed  chan struct{}
}

// openStoreAsync starts opening the store of a run that has passed
// storewrite.SetDamagedAside under the lock it holds.
func openStoreAsync(indexDir string) *storeFuture {
	f := &storeFuture{ready: make(chan struct{}), closed: make(chan struct{})}
	go func() {
		f.store, f.err = storewrite.OpenCheckedStore(indexDir)
		close(f.ready)
	}()
	return f
}

// listedAll reports whether every commit's tree listing is cached. A run
// whose listings are not is about a new tree, which almost always brings
// new blobs: it opens the store while the tree is diffed, instead of after
// (Badger opening its tables and memtable took 50–100 ms of a 0.6 s branch
// run). A run on listed trees usually finds nothing to do and does not
// open the store at all, so hooks and queries on indexed revisions stay
// cheap.
func listedAll(indexDir string, commits []gitindex.Commit) bool {
	for _, c := range commits {
		if !gitindex.ListingCached(indexDir, c.Tree) {
			return false
		}
	}
	return true
}

// get waits for the store to be open.
func (f *storeFuture) get() (*storewrite.Store, error) {
	<-f.ready
	return f.store, f.err
}

// closeAsync starts closing the store once it is open. Closing Badger
// (flushing its memtable to a table, syncing every table it mapped) took
// 60–100 ms at the end of a branch run, mostly waiting for the disk: the
// run's last segment is written meanwhile.
func (f *storeFuture) closeAsync() {
	f.closing.Do(func() {
		go func() {
			if s, err := f.get(); err == nil {
				s.Close()
			}
			close(f.closed)
		}()
	})
}

// close closes the store once it is open, and waits until it is closed.
func (f *storeFuture) close() {
	f.closeAsync()
	<-f.closed
}

// removeOrphans deletes segment directories that no manifest names: leftovers
// of a run that was killed before publishing. Readers only open segments the
// manifest names, and we hold the lock, so this is safe.
func (ix *Indexer) removeOrphans(m *store.Manifest) {
	live := map[string]bool{}
	for _, id := range m.Segments {
		live[id] = true
	}
	entries, _ := os.ReadDir(segment.Root(ix.repo.IndexDir))
	for _, e := range entries {
		if e.IsDir() && !live[e.Name()] {
			os.RemoveAll(segment.Dir(ix.repo.IndexDir, e.Name()))
		}
	}
}

// tidyLog reclaims Badger's value log when it has grown past a few files or
// is mostly dead (storewrite.TidyLog): each indexing run that writes starts
// a log file, and merges leave the vectors of the smaller segments dead in
// theirs. The last run of a history index reclaims any dead bytes past
// the floor (storewrite.ReclaimLog), whatever their share of the log.
// Parts that hold many dead vectors are rewritten without them first
// (compactVectors), so that the log finds their old bytes dead; the last
// run of a history index then rewrites the log whatever the floor, so
// that the store it leaves holds each content's vector once.
func (ix *Indexer) tidyLog() {
	m, err := store.ReadManifest(ix.repo.IndexDir)
	compacted := err == nil && ix.compactVectors(m.Segments)
	switch {
	case err != nil:
	case ix.reclaimLog && compacted:
		storewrite.RewriteLog(ix.repo.IndexDir, m.Segments)
	case ix.reclaimLog:
		storewrite.ReclaimLog(ix.repo.IndexDir, m.Segments)
	default:
		storewrite.TidyLog(ix.repo.IndexDir, m.Segments)
	}
}
