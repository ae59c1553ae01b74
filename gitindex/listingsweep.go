package gitindex

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
)

// SweepListings deletes the cached listings of trees not in keep (nor on
// the chain of deltas a kept one is read through), and returns how many.
// A pack whose records are all kept stays, one with none is deleted, and
// the kept records of the others are copied into one new pack before they
// are deleted. It runs under the index lock, so that no pack is being
// written: one a killed run left half written is deleted, and so is one
// whose index is damaged.
func SweepListings(indexDir string, keep map[plumbing.Hash]bool) int {
	packs := treePacksOf(indexDir).current()
	files := map[string]*os.File{}
	defer func() {
		for _, f := range files {
			f.Close()
		}
	}()
	for _, p := range packs {
		if f, err := os.Open(p.path); err == nil {
			files[p.path] = f
		}
	}
	needed := map[plumbing.Hash]bool{}
	queue := make([]plumbing.Hash, 0, len(keep))
	for h := range keep {
		needed[h] = true
		queue = append(queue, h)
	}
	for len(queue) > 0 {
		t := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		for _, b := range listingBases(indexDir, packs, files, t) {
			if !needed[b] {
				needed[b] = true
				queue = append(queue, b)
			}
		}
	}
	return sweepLoose(indexDir, needed) + sweepPacks(indexDir, packs, files, needed)
}

// listingBases returns the trees the stored copies of t's listing are
// deltas against.
func listingBases(indexDir string, packs []*treePack, files map[string]*os.File, t plumbing.Hash) []plumbing.Hash {
	var out []plumbing.Hash
	if b, ok := ListingBase(indexDir, t); ok {
		out = append(out, b)
	}
	for _, p := range packs {
		if off, _, ok := p.find(t); ok && files[p.path] != nil {
			if b, ok := recordBase(files[p.path], off); ok {
				out = append(out, b)
			}
		}
	}
	return out
}

// sweepLoose deletes the listing files of trees not needed.
func sweepLoose(indexDir string, needed map[plumbing.Hash]bool) int {
	n := 0
	root := filepath.Join(indexDir, "trees")
	dirs, _ := os.ReadDir(root)
	for _, d := range dirs {
		if len(d.Name()) != 2 {
			continue
		}
		files, _ := os.ReadDir(filepath.Join(root, d.Name()))
		for _, f := range files {
			h := plumbing.NewHash(d.Name() + f.Name())
			if len(d.Name()+f.Name()) == 40 && !needed[h] {
				if os.Remove(filepath.Join(root, d.Name(), f.Name())) == nil {
					n++
				}
			}
		}
	}
	return n
}

// sweepPacks deletes the packs of listings with no record needed, and
// rewrites those with some: their needed records, checked, are copied as
// they are into one new pack, in the order of the packs' names and
// indexes, so that one store sweeps the same way.
func sweepPacks(indexDir string, packs []*treePack, files map[string]*os.File, needed map[plumbing.Hash]bool) int {
	dir := packDir(indexDir)
	known := map[string]bool{}
	for _, p := range packs {
		known[p.path] = true
	}
	if ents, err := os.ReadDir(dir); err == nil {
		for _, e := range ents {
			// Half written, or with an index that failed its checks.
			p := filepath.Join(dir, e.Name())
			if strings.HasPrefix(e.Name(), ".tmp-pack-") || isPackName(e.Name()) && !known[p] {
				os.Remove(p)
			}
		}
	}
	n := 0
	var dead, partial []*treePack
	for _, p := range packs {
		live := 0
		for i := range p.count() {
			if needed[p.tree(i)] {
				live++
			}
		}
		switch {
		case live == 0:
			dead = append(dead, p)
		case live < p.count() && files[p.path] != nil:
			partial = append(partial, p)
		}
	}
	if len(partial) > 0 {
		w := newPackWriter(indexDir)
		err := copyNeeded(w, partial, files, needed)
		if err == nil {
			err = w.finish()
		}
		if err != nil {
			w.abort()
			partial = nil // keep them all
		}
		for _, p := range partial {
			if p.path != w.written {
				dead = append(dead, p)
			}
		}
	}
	set := treePacksOf(indexDir)
	for _, p := range dead {
		if err := os.Remove(p.path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			continue
		}
		set.forget(p.path)
		for i := range p.count() {
			if !needed[p.tree(i)] {
				n++
			}
		}
	}
	return n
}

// copyNeeded copies the sound needed records of packs into w.
func copyNeeded(w *packWriter, packs []*treePack, files map[string]*os.File, needed map[plumbing.Hash]bool) error {
	for _, p := range packs {
		for i := range p.count() {
			t := p.tree(i)
			if !needed[t] {
				continue
			}
			off, m := p.entry(i)
			b := make([]byte, m)
			if _, err := files[p.path].ReadAt(b, off); err != nil {
				continue
			}
			if _, err := decodeRecord(t, b); err != nil {
				continue
			}
			if err := w.addRecord(t, b); err != nil {
				return err
			}
		}
	}
	return nil
}
