package storetest

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/bcindex/bcindex/segment"
	"github.com/bcindex/bcindex/store/storewrite"
	"github.com/dgraph-io/badger/v4"
)

// SegmentFiles returns the bytes of every file the index keeps under
// segments/, by path, but each segment's record of verified file
// versions, which holds the files' identities on disk (inode, times).
func SegmentFiles(t testing.TB, indexDir string) map[string][]byte {
	t.Helper()
	root := segment.Root(indexDir)
	out := map[string][]byte{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Name() == "verified" {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		out[rel] = b
		return nil
	})
	if err != nil {
		t.Fatalf("read the segments of %s: %v", indexDir, err)
	}
	return out
}

// PartKeys counts the vector parts Badger holds for segment id.
func PartKeys(t testing.TB, indexDir, id string) int {
	t.Helper()
	st, err := storewrite.OpenStore(indexDir)
	if err != nil {
		t.Fatalf("open the store: %v", err)
	}
	defer st.Close()
	n := 0
	err = st.DB.View(func(txn *badger.Txn) error {
		it := txn.NewIterator(badger.IteratorOptions{Prefix: []byte("s/" + id + "/")})
		defer it.Close()
		for it.Rewind(); it.Valid(); it.Next() {
			n++
		}
		return nil
	})
	if err != nil {
		t.Fatalf("count the vector parts of %s: %v", id, err)
	}
	return n
}
