package search

import (
	"strings"
	"testing"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/internal/testkit/gittest"
)

// TestRowBlobsMatchTable checks the rows' blobs built from the blob
// tables against each row's own record, over two segments, and that a
// view opened once keeps them and the joined path fields for the next
// query (a different path filter joins its own), until it is reopened.
func TestRowBlobsMatchTable(t *testing.T) {
	repo := indexTwice(t, map[string]string{
		"net/retry.go":        gittest.RetryGo,
		"net/copy/retry.go":   gittest.RetryGo,
		"p/p.go":              undocumented,
		"Deep/A/B/C/Parse.go": "package c\n\n// Parse reads a line.\nfunc Parse(s string) string { return s }\n\n// Twice reads it twice.\nfunc Twice(s string) string { return s + s }\n",
		"ÜBER/Größe.go":       "package g\n\n// Size is a size.\nfunc Size() int { return 1 }\n",
	}, map[string]string{
		"cfg/config.go": "package cfg\n\n// Load reads the configuration file.\nfunc Load(path string) error { return nil }\n\nfunc retried(p string) error { return nil }\n",
		"cfg/retry.go":  "package cfg\n\n// Retries counts the retries.\nvar Retries = 3\n",
	})
	rd := openDefaultView(t, repo)
	requireSegments(t, rd, 2)
	rb := newRowBlobs(rd.Snap)
	rows := 0
	for s, seg := range rd.Snap.Segments {
		for r := 0; r < seg.Rows(); r++ {
			rows++
			if got, want := rb.of(s, r), seg.BlobOf(r); got != want {
				t.Errorf("segment %d row %d: blob %d; its record: %d", s, r, got, want)
			}
			if got, want := rb.firstOf(s, r), seg.BlobFirst(r); got != want {
				t.Errorf("segment %d row %d: first row %d; its record: %d", s, r, got, want)
			}
		}
	}
	if rows < 10 {
		t.Fatalf("%d rows; the test needs more", rows)
	}

	opts := Options{Query: "retry", Embedder: embed.Default()}
	a := viewOf(repo, rd.Want.Commits[0], rd, 1, &opts)
	b := viewOf(repo, rd.Want.Commits[0], rd, 1, &opts)
	if a.rowBlobs() != b.rowBlobs() {
		t.Error("two queries on one view built the rows' blobs twice")
	}
	ta, ea := a.lowerPaths()
	tb, eb := b.lowerPaths()
	if ta == "" || ta != tb || strings.Contains(ta, "Deep") {
		t.Errorf("joined path fields %q and %q", ta, tb)
	}
	if len(ea) == 0 || &ea[0] != &eb[0] {
		t.Error("two queries on one view joined the path fields twice")
	}
	// The fields as the view had joined them, one per added blob.
	var want strings.Builder
	for _, x := range a.added {
		want.WriteString(lowerASCII(fieldText(x.path)) + "\n")
	}
	if ta != want.String() {
		t.Errorf("joined path fields %q; each lowered: %q", ta, want.String())
	}
	if !strings.Contains(ta, "über/größe.go") || !strings.Contains(ta, "a/b/c/parse.go") {
		t.Errorf("joined path fields %q lack the lowered capitals", ta)
	}
	filtered := Options{Query: "retry", Path: "cfg/", Embedder: embed.Default()}
	c := viewOf(repo, rd.Want.Commits[0], rd, 1, &filtered)
	if tc, _ := c.lowerPaths(); tc != "cfg/config.go\ncfg/retry.go\n" && tc != "cfg/retry.go\ncfg/config.go\n" {
		t.Errorf("the path filter's view joined %q", tc)
	}
	if err := rd.Reopen(); err != nil {
		t.Fatal(err)
	}
	d := viewOf(repo, rd.Want.Commits[0], rd, 1, &opts)
	if d.rowBlobs() == a.rowBlobs() {
		t.Error("the reopened view kept the rows' blobs of the snapshot it closed")
	}
}
