package bench

import (
	"os"
	"path/filepath"
	"testing"
)

// TestRestoreIndex checks that a restored index holds exactly the saved
// files: what a run added to the index since is gone.
func TestRestoreIndex(t *testing.T) {
	dir := t.TempDir()
	saved, dst := filepath.Join(dir, "saved"), filepath.Join(dir, "index")
	for p, body := range map[string]string{"MANIFEST": "m", "segments/00000001/chunks.bin": "c", "trees/ab/cdef": "t"} {
		write(t, filepath.Join(saved, p), body)
	}
	write(t, filepath.Join(dst, "MANIFEST"), "newer")
	write(t, filepath.Join(dst, "segments/00000002/chunks.bin"), "added by a run")
	if err := restoreIndex(dst, saved); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	err := filepath.WalkDir(dst, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dst, p)
		got[filepath.ToSlash(rel)] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"MANIFEST": "m", "segments/00000001/chunks.bin": "c", "trees/ab/cdef": "t"}
	if len(got) != len(want) {
		t.Fatalf("restored %v, want %v", got, want)
	}
	for p, body := range want {
		if got[p] != body {
			t.Errorf("%s = %q, want %q", p, got[p], body)
		}
	}
}

func write(t *testing.T, p, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}
