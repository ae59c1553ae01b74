package gitindex

import (
	"os"
	"path/filepath"
	"sort"
	"sync"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
)

// treePackSet is the packs of listings of one index directory, their
// indexes read once per process. The directory is listed again when it
// changed since (its modification time or size), or changed less than a
// second before the last listing (a time the file system may keep
// coarsely): a pack another process wrote is then seen by the next
// lookup. A pack it no longer finds is dropped; a pack whose index fails
// its checks is left out, so that none of its records is served.
type treePackSet struct {
	dir string

	mu      sync.Mutex
	listed  time.Time // the directory's modification time when listed
	size    int64
	at      time.Time // when it was listed
	packs   []*treePack
	skipped map[string]bool // packs whose index failed its checks
}

var treePackSets sync.Map // index directory → *treePackSet

// treePacksOf returns the pack set of indexDir.
func treePacksOf(indexDir string) *treePackSet {
	if s, ok := treePackSets.Load(indexDir); ok {
		return s.(*treePackSet)
	}
	s, _ := treePackSets.LoadOrStore(indexDir, &treePackSet{dir: packDir(indexDir), skipped: map[string]bool{}})
	return s.(*treePackSet)
}

// current returns the packs, listing the directory again first if it
// changed.
func (s *treePackSet) current() []*treePack {
	s.mu.Lock()
	defer s.mu.Unlock()
	st, err := os.Stat(s.dir)
	if err != nil {
		s.packs, s.listed = nil, time.Time{}
		return nil
	}
	if st.ModTime().Equal(s.listed) && st.Size() == s.size && s.at.Sub(s.listed) > time.Second {
		return s.packs
	}
	s.relist(st)
	return s.packs
}

// relist lists the directory, whose state is st, opening the packs not
// known yet.
func (s *treePackSet) relist(st os.FileInfo) {
	ents, err := os.ReadDir(s.dir)
	if err != nil {
		return
	}
	s.listed, s.size, s.at = st.ModTime(), st.Size(), time.Now()
	known := map[string]*treePack{}
	for _, p := range s.packs {
		known[p.path] = p
	}
	var packs []*treePack
	for _, e := range ents {
		if !isPackName(e.Name()) {
			continue
		}
		path := filepath.Join(s.dir, e.Name())
		p, ok := known[path]
		if !ok && !s.skipped[path] {
			var err error
			if p, err = openTreePack(path); err != nil {
				s.skipped[path] = true
				continue
			}
		}
		if p != nil {
			packs = append(packs, p)
		}
	}
	s.packs = packs
}

// add makes a pack this process just wrote known without listing the
// directory.
func (s *treePackSet) add(p *treePack) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, q := range s.packs {
		if q.path == p.path {
			return
		}
	}
	// A new slice: readers may hold the old one.
	packs := append(append(make([]*treePack, 0, len(s.packs)+1), s.packs...), p)
	sort.Slice(packs, func(i, j int) bool { return packs[i].path < packs[j].path })
	s.packs = packs
}

// forget drops a pack that is gone.
func (s *treePackSet) forget(path string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	kept := s.packs[:0:0]
	for _, p := range s.packs {
		if p.path != path {
			kept = append(kept, p)
		}
	}
	s.packs = kept
}

// has reports whether a pack holds a record of tree.
func (s *treePackSet) has(tree plumbing.Hash) bool {
	for _, p := range s.current() {
		if _, _, ok := p.find(tree); ok {
			return true
		}
	}
	return false
}
