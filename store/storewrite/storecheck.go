package storewrite

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/bcindex/bcindex/segment"
	"github.com/bcindex/bcindex/store"
)

// MoveDamagedStore sets a Badger database that fails store.CheckBadger
// aside, as db.damaged (replacing an older one), and removes the segments,
// so that the run rebuilds the index from git: the database's records are what
// segments are merged and shared from, and a fresh build is the one state
// known to be whole. It returns the line to tell the user, or "" when the
// database is sound. The caller holds the index lock.
func MoveDamagedStore(indexDir string) (string, error) {
	db := filepath.Join(indexDir, "db")
	if _, err := os.Stat(db); err != nil {
		return "", nil
	}
	cerr := store.CheckBadger(db, false)
	if !errors.Is(cerr, store.ErrCorrupt) {
		return "", nil
	}
	aside := db + ".damaged"
	if err := os.RemoveAll(aside); err != nil {
		return "", fmt.Errorf("set damaged index aside: %w", err)
	}
	if err := os.Rename(db, aside); err != nil {
		return "", fmt.Errorf("set damaged index aside: %w", err)
	}
	if err := os.RemoveAll(segment.Root(indexDir)); err != nil {
		return "", fmt.Errorf("remove index: %w", err)
	}
	return fmt.Sprintf("the index database was damaged (%v); moved it to %s and rebuilt the index from git", strings.TrimPrefix(cerr.Error(), store.ErrCorrupt.Error()+": "), aside), nil
}

// SetDamagedAside is the first step of every indexing run: a Badger
// database that fails its checks is set aside, and a segment manifest that
// fails its checksum is dropped with the segments it named (the database's
// records make rebuilding them cheap). It returns the line to tell the
// user, or "".
func SetDamagedAside(indexDir string) (string, error) {
	msg, err := MoveDamagedStore(indexDir)
	if err != nil || msg != "" {
		return msg, err
	}
	if _, err := store.DecodeManifest(indexDir); errors.Is(err, store.ErrCorrupt) {
		if err := os.RemoveAll(segment.Root(indexDir)); err != nil {
			return "", fmt.Errorf("remove damaged segments: %w", err)
		}
		return "the segment manifest was damaged; rebuilt the segments", nil
	}
	return "", nil
}
