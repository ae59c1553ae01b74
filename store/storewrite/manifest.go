package storewrite

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/bcindex/bcindex/internal/atomicfile"
	"github.com/bcindex/bcindex/segment"
	"github.com/bcindex/bcindex/store"
)

// RemoveIndexData deletes the store, the segments and the cached listings:
// everything indexing derives from git. The caller holds the index lock.
func RemoveIndexData(indexDir string) error {
	for _, dir := range []string{filepath.Join(indexDir, "db"), segment.Root(indexDir), filepath.Join(indexDir, "trees")} {
		if err := os.RemoveAll(dir); err != nil {
			return fmt.Errorf("remove index: %w", err)
		}
	}
	return nil
}

// WriteManifest replaces the manifest atomically.
func WriteManifest(indexDir string, m *store.Manifest) error {
	b, err := store.EncodeManifest(*m)
	if err != nil {
		return err
	}
	return atomicfile.Write(segment.ManifestPath(indexDir), append(b, '\n'))
}
