package safepath_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/internal/safepath"
	"github.com/bcindex/bcindex/internal/testkit/gittest"
)

func TestClean(t *testing.T) {
	tests := []struct {
		in, want string
		err      string
	}{
		{"a/b.go", "a/b.go", ""},
		{"./a//b.go/", "a/b.go", ""},
		{"", "", ""},
		{".", "", ""},
		{`dir\name.txt`, `dir\name.txt`, ""},
		{"../../etc/passwd", "", `".."`},
		{"a/../../x", "", `".."`},
		{`a\..\..\x`, "", `".."`},
		{"/etc/passwd", "", "absolute"},
		{`C:\Windows`, "", "absolute"},
		{`\\server\share`, "", "absolute"},
		{"a\x00b", "", "NUL"},
	}
	for _, tt := range tests {
		got, err := safepath.Clean(tt.in)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("Clean(%q) error = %v, want %q", tt.in, err, tt.err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("Clean(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}

// newRepo commits files, links to outside and inside the tree, a binary
// file and a submodule entry, and opens the repository.
func newRepo(t *testing.T) *gitindex.Repo {
	t.Helper()
	r := gittest.New(t)
	first := r.Commit("v1", map[string]string{"src/main.go": "package main\n", "README.md": "# Demo\n"})
	r.Git("tag", "v1")
	r.Write(map[string]string{"lib/main.go": "package lib\n", "data.bin": "ab\x00cd"})
	for link, target := range map[string]string{"escape": "/", "etc": "../../etc", "readme-link": "README.md"} {
		if err := os.Symlink(target, filepath.Join(r.Dir, link)); err != nil {
			t.Fatal(err)
		}
	}
	r.Git("add", "-A")
	// The submodule's directory is absent: "git add -A" would drop it.
	r.Git("update-index", "--add", "--cacheinfo", "160000,"+first+",vendor/sub")
	r.Git("commit", "-q", "-m", "v2")
	repo, err := gitindex.OpenRepo(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	return repo
}

func TestFileAndDir(t *testing.T) {
	tr, err := safepath.Open(newRepo(t), "")
	if err != nil {
		t.Fatal(err)
	}
	if tr.Commit.Rev != "HEAD" {
		t.Errorf("Open with no revision: rev %q, want HEAD", tr.Commit.Rev)
	}
	files := []struct{ arg, want, err string }{
		{"src/main.go", "src/main.go", ""},
		{"./src//main.go", "src/main.go", ""},
		{"", "", "path is required"},
		{"../../etc/passwd", "", `".." may not appear`},
		{"/etc/passwd", "", "absolute path"},
		{"escape", "", "symbolic link"},
		{"escape/etc/passwd", "", "goes through the symbolic link"},
		{"etc/passwd", "", "symbolic link"},
		{"readme-link", "", "symbolic link"},
		{"vendor/sub", "", "submodule"},
		{"vendor/sub/x.go", "", "submodule"},
		{"README.md/x", "", "not a directory"},
		{"src", "", "is a directory"},
		{"main.go", "", "src/main.go"}, // suggests files of that name
		{"nope.go", "", "no file"},
	}
	for _, tt := range files {
		e, err := tr.File(tt.arg)
		switch {
		case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
			t.Errorf("File(%q) error = %v, want one about %q", tt.arg, err, tt.err)
		case tt.err == "" && (err != nil || e.Path != tt.want):
			t.Errorf("File(%q) = %q, %v; want %q", tt.arg, e.Path, err, tt.want)
		}
	}
	if _, err := tr.File("lib"); !errors.Is(err, safepath.ErrIsDir) {
		t.Errorf("File of a directory: %v, want ErrIsDir", err)
	}
	dirs := []struct{ arg, want, err string }{
		{"", "", ""},
		{"src/", "src", ""},
		{"vendor", "vendor", ""},
		{"README.md", "", "is a file"},
		{"escape", "", "symbolic link"},
		{"nope", "", "no directory"},
		{"a/../..", "", `".."`},
	}
	for _, tt := range dirs {
		got, err := tr.Dir(tt.arg)
		switch {
		case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
			t.Errorf("Dir(%q) error = %v, want one about %q", tt.arg, err, tt.err)
		case tt.err == "" && (err != nil || got != tt.want):
			t.Errorf("Dir(%q) = %q, %v; want %q", tt.arg, got, err, tt.want)
		}
	}
	if _, err := tr.Dir("README.md"); !errors.Is(err, safepath.ErrIsFile) {
		t.Errorf("Dir of a file: %v, want ErrIsFile", err)
	}
}

func TestReadFile(t *testing.T) {
	repo := newRepo(t)
	f, err := safepath.ReadFile(repo, "v1", "src/main.go")
	if err != nil {
		t.Fatal(err)
	}
	if f.Rev != "v1" || f.Path != "src/main.go" || f.Language != "go" || string(f.Content) != "package main\n" || len(f.Commit) != 40 {
		t.Errorf("ReadFile at v1: %+v", f)
	}
	if _, err := safepath.ReadFile(repo, "v1", "lib/main.go"); err == nil || !strings.Contains(err.Error(), "no file") {
		t.Errorf("a file added after v1, read at v1: %v", err)
	}
	if _, err := safepath.ReadFile(repo, "HEAD", "data.bin"); err == nil || !strings.Contains(err.Error(), "binary") {
		t.Errorf("a binary file: %v", err)
	}
	for _, rev := range []string{"--output=/tmp/x", "no-such-branch"} {
		if _, err := safepath.ReadFile(repo, rev, "README.md"); !errors.Is(err, gitindex.ErrUnknownRevision) {
			t.Errorf("revision %q: %v, want ErrUnknownRevision", rev, err)
		}
	}
}
