package gitindex

import (
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
)

// TestListingPathBytes checks that a listing's front-coded paths are
// measured exactly before they are decoded (entries and bare paths), and
// that damaged lengths fall back to an estimate instead of a huge size.
func TestListingPathBytes(t *testing.T) {
	var es []Entry
	var paths []string
	for i, p := range []string{"a.go", "cmd/main.go", "cmd/main_test.go", "internal/very/deep/directory/name/file.go", "internal/very/deep/directory/name/other.go", "z"} {
		es = append(es, Entry{Path: p, Blob: plumbing.Hash{byte(i + 1)}})
		paths = append(paths, p)
	}
	want := len(strings.Join(paths, ""))
	r := &listingReader{d: appendEntries(nil, es)}
	n := r.count()
	if got := r.pathBytes(n, len(plumbing.ZeroHash)+1); got != want {
		t.Errorf("entries: %d path bytes measured, %d in the paths", got, want)
	}
	got := (&listingReader{d: appendEntries(nil, es)}).entries()
	if len(got) != len(es) {
		t.Fatalf("%d entries read back, %d written", len(got), len(es))
	}
	for i := range es {
		if got[i] != es[i] {
			t.Errorf("entry %d read back as %+v, written %+v", i, got[i], es[i])
		}
	}
	r = &listingReader{d: appendPaths(nil, paths)}
	n = r.count()
	if got := r.pathBytes(n, 0); got != want {
		t.Errorf("paths: %d path bytes measured, %d in the paths", got, want)
	}
	if ps := r.pathList(n, 0, nil); strings.Join(ps, "\n") != strings.Join(paths, "\n") {
		t.Errorf("paths read back as %q", ps)
	}
	// A shared prefix longer than the path before it is damage.
	bad := &listingReader{d: []byte{0, 1, 'a', 9, 1, 'b'}}
	if got := bad.pathBytes(2, 0); got != 2*48 {
		t.Errorf("damaged paths measured %d bytes, want the estimate %d", got, 2*48)
	}
}
