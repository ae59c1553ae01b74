package storewrite

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/segment"
	"github.com/bcindex/bcindex/store"
)

// Damage is one part of the store that failed its checks.
type Damage struct {
	Part   string `json:"part"`   // "database", "manifest", "segment", "tree listing"
	Name   string `json:"name"`   // segment ID, tree SHA, pack of listings, or file
	Detail string `json:"detail"` // what is wrong
	path   string // what repair removes or sets aside
}

func (d Damage) String() string {
	if d.Name == "" {
		return fmt.Sprintf("%s: %s", d.Part, d.Detail)
	}
	return fmt.Sprintf("%s %s: %s", d.Part, d.Name, d.Detail)
}

// CheckReport is what Check found.
type CheckReport struct {
	Files   int      `json:"files_checked"`
	Damaged []Damage `json:"damaged"`
}

// Check verifies every byte of the store: each Badger table block by block,
// the segment manifest, every segment file (checksums and, for postings,
// every structure) and every cached tree listing. It does not change
// anything and needs no lock: segments and listings are immutable, and the
// database's tables are only ever replaced.
func Check(ctx context.Context, indexDir string, checkListing func(tree string) error) (*CheckReport, error) {
	rep := &CheckReport{}
	db := filepath.Join(indexDir, "db")
	if _, err := os.Stat(db); err == nil {
		tables, _ := filepath.Glob(filepath.Join(db, "*.sst"))
		rep.Files += len(tables) + 1
		if err := store.CheckBadger(db, true); err != nil {
			rep.Damaged = append(rep.Damaged, Damage{Part: "database", Detail: detail(err), path: db})
		}
	}
	m, err := store.DecodeManifest(indexDir)
	switch {
	case errors.Is(err, store.ErrNoIndex):
	case err != nil:
		rep.Files++
		rep.Damaged = append(rep.Damaged, Damage{Part: "manifest", Detail: detail(err), path: segment.Root(indexDir)})
	default:
		rep.Files++
		for _, id := range m.Segments {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			n, err := segment.Check(indexDir, id)
			rep.Files += n
			if err != nil {
				rep.Damaged = append(rep.Damaged, Damage{Part: "segment", Name: id, Detail: detail(err), path: segment.Dir(indexDir, id)})
			}
		}
	}
	if _, err := store.OpenSummaryIndex(indexDir); !errors.Is(err, store.ErrNoSummaryIndex) {
		rep.Files++
		if err != nil {
			rep.Damaged = append(rep.Damaged, Damage{Part: "summary index", Detail: detail(err), path: filepath.Join(indexDir, store.SummaryIndexFile)})
		}
	}
	root := filepath.Join(indexDir, "trees")
	dirs, _ := os.ReadDir(root)
	for _, d := range dirs {
		files, _ := os.ReadDir(filepath.Join(root, d.Name()))
		for _, f := range files {
			name := d.Name() + f.Name()
			if len(name) != 40 || strings.HasPrefix(f.Name(), ".tmp-") {
				continue
			}
			rep.Files++
			if err := checkListing(name); err != nil {
				rep.Damaged = append(rep.Damaged, Damage{Part: "tree listing", Name: name, Detail: detail(err), path: filepath.Join(root, d.Name(), f.Name())})
			}
		}
	}
	checkListingPacks(filepath.Join(root, "pack"), rep)
	return rep, nil
}

// checkListingPacks checks every pack of listings in dir; a damaged one
// is repaired by deleting it (its listings are listed again from git).
func checkListingPacks(dir string, rep *CheckReport) {
	packs, _ := os.ReadDir(dir)
	for _, f := range packs {
		name := f.Name()
		if !strings.HasPrefix(name, "pack-") || !strings.HasSuffix(name, ".pack") {
			continue
		}
		rep.Files++
		if _, err := gitindex.CheckListingPack(filepath.Join(dir, name)); err != nil {
			rep.Damaged = append(rep.Damaged, Damage{Part: "tree listing", Name: "pack/" + name, Detail: detail(err), path: filepath.Join(dir, name)})
		}
	}
}

// detail is an error without the sentinel's words, for a report line.
func detail(err error) string {
	return strings.ReplaceAll(err.Error(), store.ErrCorrupt.Error()+": ", "")
}

// Repair sets every damaged part aside or removes it, under the index
// lock, keeping what is sound; the caller then indexes again, which
// rebuilds the missing parts from git. A damaged database is set aside
// with the segments (see MoveDamagedStore); a damaged segment leaves the
// manifest; a damaged manifest drops the segments it named; a damaged tree
// listing is deleted (it is walked again when needed), and so is a damaged
// summary index (`git bcindex enhance` writes it again from the database).
func Repair(ctx context.Context, indexDir string, rep *CheckReport, lockWait time.Duration) error {
	if len(rep.Damaged) == 0 {
		return nil
	}
	lock, err := AcquireLock(ctx, indexDir, lockWait)
	if err != nil {
		return err
	}
	defer lock.Release()
	var bad []string
	for _, d := range rep.Damaged {
		switch d.Part {
		case "database":
			aside := d.path + ".damaged"
			os.RemoveAll(aside)
			if err := os.Rename(d.path, aside); err != nil {
				return fmt.Errorf("repair: set database aside: %w", err)
			}
			if err := os.RemoveAll(segment.Root(indexDir)); err != nil {
				return fmt.Errorf("repair: %w", err)
			}
		case "manifest":
			if err := os.RemoveAll(d.path); err != nil {
				return fmt.Errorf("repair: %w", err)
			}
		case "segment":
			bad = append(bad, d.Name)
		case "tree listing", "summary index":
			if err := os.Remove(d.path); err != nil && !errors.Is(err, os.ErrNotExist) {
				return fmt.Errorf("repair: %w", err)
			}
		}
	}
	if len(bad) == 0 {
		return nil
	}
	m, err := store.ReadManifest(indexDir)
	if err != nil {
		return nil // the segments went with the database or the manifest
	}
	drop := map[string]bool{}
	for _, id := range bad {
		drop[id] = true
	}
	kept := m.Segments[:0]
	for _, id := range m.Segments {
		if !drop[id] {
			kept = append(kept, id)
		}
	}
	m.Segments = kept
	if err := WriteManifest(indexDir, m); err != nil {
		return fmt.Errorf("repair: %w", err)
	}
	for _, id := range bad {
		os.RemoveAll(segment.Dir(indexDir, id))
	}
	return nil
}
