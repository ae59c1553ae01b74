package gitindex

import (
	"bytes"
	"compress/zlib"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/bcindex/bcindex/internal/testkit/gittest"
)

// TestReadLooseBlobs reads blobs that are loose (a new commit) and packed
// (after git repack), and requires the committed content either way.
func TestReadLooseBlobs(t *testing.T) {
	r := gittest.New(t)
	files := map[string]string{"old.go": "package old\n", "new.go": "package new\n", "big.txt": strings.Repeat("line of text\n", 1000)}
	r.Commit("packed", map[string]string{"old.go": files["old.go"]})
	r.Git("repack", "-a", "-d", "-q")
	big := files["big.txt"]
	r.Commit("loose", map[string]string{"new.go": files["new.go"], "big.txt": big})
	repo, err := OpenRepo(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"old.go", "new.go", "big.txt"} {
		h := plumbing.NewHash(r.Git("rev-parse", "HEAD:"+path))
		loose := repo.loose.contains(h)
		if want := path != "old.go"; loose != want {
			t.Errorf("%s: loose %v, want %v", path, loose, want)
		}
		got, size, err := repo.ReadBlobUpTo(h, -1)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		want := files[path]
		if string(got) != want || size != int64(len(want)) {
			t.Errorf("%s: read %d bytes (size %d), want %d", path, len(got), size, len(want))
		}
	}
	// Over the limit: the size, no content.
	h := plumbing.NewHash(r.Git("rev-parse", "HEAD:big.txt"))
	if got, size, err := repo.ReadBlobUpTo(h, 100); err != nil || got != nil || size != int64(len(big)) {
		t.Errorf("over the limit: %d bytes, size %d, %v; want none, %d", len(got), size, err, len(big))
	}
}

// TestDamagedLooseBlob replaces a loose object's file with a well-formed
// object of other content: reading it is an error, never the wrong content.
func TestDamagedLooseBlob(t *testing.T) {
	r := gittest.New(t)
	r.Commit("one", map[string]string{"a.go": "package a\n"})
	h := plumbing.NewHash(r.Git("rev-parse", "HEAD:a.go"))
	var obj bytes.Buffer
	zw := zlib.NewWriter(&obj)
	fmt.Fprintf(zw, "blob 10\x00package b\n")
	zw.Close()
	p := filepath.Join(r.Dir, ".git", "objects", h.String()[:2], h.String()[2:])
	os.Chmod(p, 0o644)
	if err := os.WriteFile(p, obj.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	repo, err := OpenRepo(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	got, err := repo.ReadBlob(h)
	if err == nil || !strings.Contains(err.Error(), "damaged") {
		t.Fatalf("damaged loose object: got %q, %v; want an error", got, err)
	}
}

// TestMalformedLooseObjects writes loose object files whose stream is cut
// short, or whose header gives another length than the content has:
// reading them is an error, never content.
func TestMalformedLooseObjects(t *testing.T) {
	compress := func(s string) []byte {
		var b bytes.Buffer
		zw := zlib.NewWriter(&b)
		fmt.Fprint(zw, s)
		zw.Close()
		return b.Bytes()
	}
	whole := compress("blob 10\x00package a\n")
	for name, file := range map[string][]byte{
		"cut short":        whole[:len(whole)-6],
		"length too long":  compress("blob 11\x00package a\n"),
		"length too short": compress("blob 9\x00package a\n"),
		"no header":        compress("package a\n"),
	} {
		t.Run(name, func(t *testing.T) {
			r := gittest.New(t)
			r.Commit("one", map[string]string{"a.go": "package a\n"})
			h := plumbing.NewHash(r.Git("rev-parse", "HEAD:a.go"))
			p := filepath.Join(r.Dir, ".git", "objects", h.String()[:2], h.String()[2:])
			os.Chmod(p, 0o644)
			if err := os.WriteFile(p, file, 0o644); err != nil {
				t.Fatal(err)
			}
			repo, err := OpenRepo(r.Dir)
			if err != nil {
				t.Fatal(err)
			}
			if got, _, ok, err := repo.loose.read(h, plumbing.BlobObject, -1); ok || err == nil {
				t.Errorf("read %q, ok %v, error %v; want an error", got, ok, err)
			}
		})
	}
}

// TestDamagedLooseBlobWithPackedCopy: a damaged loose file of a blob that
// is also packed is passed over for the pack, as git does; with no packed
// copy it is an error (TestDamagedLooseBlob).
func TestDamagedLooseBlobWithPackedCopy(t *testing.T) {
	r := gittest.New(t)
	r.Commit("one", map[string]string{"a.go": "package a\n"})
	r.Git("repack", "-a", "-q") // without -d: the loose files stay
	h := plumbing.NewHash(r.Git("rev-parse", "HEAD:a.go"))
	var obj bytes.Buffer
	zw := zlib.NewWriter(&obj)
	fmt.Fprintf(zw, "blob 10\x00package b\n")
	zw.Close()
	p := filepath.Join(r.Dir, ".git", "objects", h.String()[:2], h.String()[2:])
	os.Chmod(p, 0o644)
	if err := os.WriteFile(p, obj.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	repo, err := OpenRepo(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	defer repo.Close()
	if _, _, ok, err := repo.loose.read(h, plumbing.BlobObject, -1); !repo.loose.contains(h) || ok || err == nil {
		t.Fatalf("the loose file reads: ok %v, %v; want an error", ok, err)
	}
	if _, _, ok := repo.packs.find(h); !ok {
		t.Fatal("no packed copy")
	}
	if got, err := repo.ReadBlob(h); err != nil || string(got) != "package a\n" {
		t.Errorf("read %q, %v; want the packed copy", got, err)
	}
}

// TestLooseLookupListsOneDirectory: a lookup lists only the objects/xx/
// directory of its name, so a search that reads a few objects of a
// repository with many loose ones lists a few directories; every loose
// object is still found, and a name that is not loose is not.
func TestLooseLookupListsOneDirectory(t *testing.T) {
	r := gittest.New(t)
	files := map[string]string{}
	for i := range 64 {
		files[fmt.Sprintf("f%d.go", i)] = fmt.Sprintf("package f\n\nconst N%d = %d\n", i, i)
	}
	r.Commit("loose", files)
	objects := filepath.Join(r.Dir, ".git", "objects")
	l := newLooseObjects(objects)
	first := plumbing.NewHash(r.Git("rev-parse", "HEAD:f0.go"))
	if !l.contains(first) {
		t.Fatalf("%s is loose but not found", first)
	}
	for b := range l.buckets {
		if b != int(first[0]) && l.buckets[b].has != nil {
			t.Errorf("objects/%02x/ was listed for a lookup in objects/%02x/", b, first[0])
		}
	}
	for name := range files {
		if h := plumbing.NewHash(r.Git("rev-parse", "HEAD:"+name)); !l.contains(h) {
			t.Errorf("%s (%s) is loose but not found", name, h)
		}
	}
	if l.contains(plumbing.NewHash(strings.Repeat("ab", 20))) {
		t.Error("a name with no object is found")
	}
}
