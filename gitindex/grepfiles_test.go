package gitindex

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/bcindex/bcindex/internal/testkit/gittest"
)

// TestGrepWorktree: files whose status in git's index still holds are
// their staged blob; changed and deleted ones are read from the working
// tree; an attribute that changes bytes at checkout (not a comment that
// mentions CRLF) has every file read.
func TestGrepWorktree(t *testing.T) {
	r := gittest.New(t)
	r.Commit("init", map[string]string{"a.txt": "a\n", "b.txt": "b\n", "c.txt": "c\n",
		".gitattributes": "# CRLF endings are not converted\n* -text\n"})
	// Files older than the index, so that none is racily clean.
	past := time.Now().Add(-time.Hour)
	for _, p := range []string{"a.txt", "b.txt", "c.txt", ".gitattributes"} {
		if err := os.Chtimes(filepath.Join(r.Dir, p), past, past); err != nil {
			t.Fatal(err)
		}
	}
	r.Git("update-index", "--really-refresh")
	r.Write(map[string]string{"b.txt": "changed\n"})
	r.Remove("c.txt")
	repo, err := OpenRepo(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	staged := func() map[string]bool {
		files, err := repo.GrepWorktree(false)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]bool{}
		for _, f := range files {
			out[f.Path] = !f.Blob.IsZero()
		}
		return out
	}
	got := staged()
	if !got["a.txt"] || got["b.txt"] || got["c.txt"] || len(got) != 4 {
		t.Errorf("blob known: %v; want a.txt and .gitattributes only, of 4 files", got)
	}
	r.Write(map[string]string{".gitattributes": "*.txt filter=lfs\n"})
	if got := staged(); got["a.txt"] {
		t.Errorf("with a filter, a.txt's blob is taken for what the file holds")
	}
	cached, err := repo.GrepWorktree(true)
	if err != nil || len(cached) != 4 || cached[1].Blob.IsZero() {
		t.Errorf("--cached: %v %v", cached, err)
	}
}
