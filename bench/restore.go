package bench

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// restoreIndex replaces the index directory dst with a copy of saved, and
// syncs the copy to disk before it is used. A store that earlier runs wrote
// is on disk, not dirty in the page cache: without the sync, the next
// run's first fsync or msync of a copied file (Badger syncs every table it
// mapped when it closes) would write the whole copy back inside the run
// being timed.
func restoreIndex(dst, saved string) error {
	if err := os.RemoveAll(dst); err != nil {
		return fmt.Errorf("restore the index: %w", err)
	}
	if err := copySynced(dst, saved); err != nil {
		return fmt.Errorf("restore the index: %w", err)
	}
	return nil
}

// copySynced copies the directory src to a new directory dst and syncs
// the copy to disk.
func copySynced(dst, src string) error {
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		return err
	}
	return syncTree(dst)
}

// syncTree fsyncs every file and directory under dir, directories after
// their contents.
func syncTree(dir string) error {
	var dirs []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			dirs = append(dirs, p)
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		return syncPath(p)
	})
	if err != nil {
		return err
	}
	for i := len(dirs) - 1; i >= 0; i-- {
		if err := syncPath(dirs[i]); err != nil {
			return err
		}
	}
	return nil
}

func syncPath(p string) error {
	f, err := os.Open(p)
	if err != nil {
		return err
	}
	serr := f.Sync()
	if cerr := f.Close(); serr == nil {
		serr = cerr
	}
	if serr != nil {
		return fmt.Errorf("sync %s: %w", p, serr)
	}
	return nil
}
