package indexer

import (
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/internal/testkit/gittest"
	"github.com/bcindex/bcindex/segment"
	"github.com/bcindex/bcindex/store"
	"github.com/bcindex/bcindex/store/storewrite"
)

// editCases change real Go files (GOROOT/src) the way a branch does. The
// last one adds an import, which Edit leaves to a full parse.
var editCases = []struct {
	name  string
	apply func(src string) string
}{
	{"append a function", func(src string) string {
		return src + "\n// Appended is new.\nfunc Appended() int {\n\treturn 1\n}\n"
	}},
	{"insert a function in the middle", func(src string) string {
		i := strings.Index(src[len(src)/2:], "\nfunc ")
		if i < 0 {
			return ""
		}
		at := len(src)/2 + i + 1
		return src[:at] + "// Inserted is new.\nfunc Inserted() {}\n\n" + src[at:]
	}},
	{"reword a doc comment", func(src string) string {
		i := strings.Index(src[len(src)/3:], "\n// ")
		if i < 0 {
			return ""
		}
		at := len(src)/3 + i + 4
		return src[:at] + "Reworded: " + src[at:]
	}},
	{"add an import", func(src string) string {
		if !strings.Contains(src, "\nimport (\n") {
			return ""
		}
		return strings.Replace(src, "\nimport (\n", "\nimport (\n\t_ \"embed\"\n", 1)
	}},
}

// TestEditedFilesIndexLikeNewOnes indexes a branch whose Go files were
// edited on top of an indexed main, so that the indexer chunks them from
// their previous versions, and requires every row of the edited files to
// equal what indexing the same commit from scratch writes.
func TestEditedFilesIndexLikeNewOnes(t *testing.T) {
	goroot := filepath.Join(runtime.GOROOT(), "src")
	names := []string{"strings/builder.go", "strings/reader.go", "bufio/scan.go", "net/url/url.go",
		"sort/sort.go", "container/list/list.go", "text/tabwriter/tabwriter.go", "errors/wrap.go"}
	base := map[string]string{"README.md": "# sample\n\nReal Go files.\n"}
	for _, n := range names {
		b, err := os.ReadFile(filepath.Join(goroot, n))
		if err != nil {
			t.Skipf("GOROOT source not readable: %v", err)
		}
		base[n] = string(b)
	}
	r := gittest.New(t)
	r.Commit("base", base)
	emb := embed.Default()
	indexRevs(t, r.Dir, emb, "HEAD")

	r.Git("switch", "-q", "-c", "feature")
	edited := map[string]string{}
	viaEdit := 0 // edits Edit is expected to take
	for i, n := range names {
		c := editCases[i%len(editCases)]
		if next := c.apply(base[n]); next != "" {
			edited[n] = next
			if c.name != "add an import" {
				viaEdit++
			}
		}
	}
	r.Commit("edits", edited)
	sum := indexRevs(t, r.Dir, emb, "feature")
	if sum.BlobsNew != len(edited) || sum.BlobsEdited != viaEdit {
		t.Fatalf("new blobs %d (want %d), chunked from the previous version %d (want %d)", sum.BlobsNew, len(edited), sum.BlobsEdited, viaEdit)
	}

	// The same commit, indexed from scratch in a clone.
	fresh := t.TempDir()
	r.Git("clone", "-q", "--no-local", r.Dir, fresh)
	if s := indexRevs(t, fresh, emb, "origin/feature"); s.BlobsEdited != 0 {
		t.Fatalf("a fresh index chunked %d blobs from previous versions", s.BlobsEdited)
	}
	got, want := openSnap(t, r.Dir, emb), openSnap(t, fresh, emb)
	for n := range edited {
		sha := r.Git("rev-parse", "feature:"+n)
		g, w := blobRows(t, got, sha), blobRows(t, want, sha)
		if len(g) != len(w) {
			t.Errorf("%s: %d rows, want %d", n, len(g), len(w))
			continue
		}
		for i := range g {
			if !reflect.DeepEqual(g[i], w[i]) {
				t.Errorf("%s row %d:\n got %+v %+v\nwant %+v %+v", n, i, g[i], g[i].Meta(), w[i], w[i].Meta())
				break
			}
		}
		// The unchanged chunks' vectors come from the previous version's
		// segment, the others from the model: all must be what a fresh
		// index computes.
		gv, wv := blobVectors(t, got, sha), blobVectors(t, want, sha)
		if !reflect.DeepEqual(gv, wv) {
			t.Errorf("%s: vectors differ from a fresh index's", n)
		}
	}
	if sum.VectorsReused == 0 {
		t.Errorf("no vector of an unchanged chunk was reused: %+v", sum)
	}
}

// blobVectors returns the vectors (with their scales) of a blob's rows.
func blobVectors(t *testing.T, snap *store.Snapshot, sha string) []vectorRow {
	t.Helper()
	loc, ok := snap.FindBlob(hashOf(t, sha))
	if !ok {
		t.Fatalf("blob %s not indexed", sha)
	}
	seg := snap.Segments[loc.Seg]
	if seg.Vec == nil {
		t.Fatalf("blob %s: its segment has no vectors", sha)
	}
	out := make([]vectorRow, loc.N)
	for i := range out {
		out[i].q, out[i].scale = seg.Vec.Row(loc.First + i)
	}
	return out
}

type vectorRow struct {
	q     []int8
	scale float32
}

func openSnap(t *testing.T, dir string, emb embed.Embedder) *store.Snapshot {
	t.Helper()
	repo, err := gitindex.OpenRepo(dir)
	if err != nil {
		t.Fatal(err)
	}
	snap, err := store.OpenSnapshot(repo.IndexDir, emb.ID())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(snap.Close)
	return snap
}

// blobRows returns a blob's rows with their details, parents counted from
// the blob's first row and the segment's blob number cleared.
func blobRows(t *testing.T, snap *store.Snapshot, sha string) []segment.Row {
	t.Helper()
	loc, ok := snap.FindBlob(hashOf(t, sha))
	if !ok {
		t.Fatalf("blob %s not indexed", sha)
	}
	seg := snap.Segments[loc.Seg]
	rows := make([]segment.Row, loc.N)
	for i := range rows {
		r := seg.RowDetail(loc.First + i)
		r.Blob = 0
		if r.Parent >= 0 {
			r.Parent -= loc.First
		}
		rows[i] = r
	}
	return rows
}

func hashOf(t *testing.T, s string) plumbing.Hash {
	t.Helper()
	if !plumbing.IsHash(s) {
		t.Fatalf("not a hash: %q", s)
	}
	return plumbing.NewHash(s)
}

// TestEditNeedsSameChunker checks that a file whose previous version was
// chunked by another chunker version is chunked from scratch.
func TestEditNeedsSameChunker(t *testing.T) {
	src := "package calc\n\n// Add returns a + b.\nfunc Add(a, b int) int {\n\treturn a + b\n}\n"
	r := gittest.New(t)
	r.Commit("base", map[string]string{"calc.go": src})
	emb := embed.Default()
	indexRevs(t, r.Dir, emb, "HEAD")
	r.Commit("edit", map[string]string{"calc.go": src + "\n// Sub returns a - b.\nfunc Sub(a, b int) int {\n\treturn a - b\n}\n"})
	for _, older := range []bool{true, false} {
		dir := t.TempDir()
		r.Git("clone", "-q", "--no-local", r.Dir, dir)
		// The clone has no index: copy the base's and, for the first case,
		// mark the base blob as chunked by an older chunker.
		repo, err := gitindex.OpenRepo(dir)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.CopyFS(repo.IndexDir, os.DirFS(filepath.Join(r.Dir, ".git", "bcindex"))); err != nil {
			t.Fatal(err)
		}
		if older {
			st, err := storewrite.OpenStore(repo.IndexDir)
			if err != nil {
				t.Fatal(err)
			}
			sha := hashOf(t, r.Git("rev-parse", "HEAD~1:calc.go"))
			rec, err := st.Blob(sha)
			if err != nil || rec == nil {
				t.Fatalf("base blob record: %v", err)
			}
			rec.ChunkerVersion--
			b := st.NewBatch()
			if err := b.PutBlob(sha, rec); err != nil {
				t.Fatal(err)
			}
			if err := b.Flush(); err != nil {
				t.Fatal(err)
			}
			st.Close()
		}
		sum := indexRevs(t, dir, emb, "origin/main")
		if want := map[bool]int{true: 0, false: 1}[older]; sum.BlobsNew != 1 || sum.BlobsEdited != want {
			t.Errorf("older chunker %v: %d new blobs, %d chunked from the previous version, want 1 and %d", older, sum.BlobsNew, sum.BlobsEdited, want)
		}
	}
}

// TestEditNeedsSameLanguage: a blob is chunked once, by the first path it
// is listed at, here as text; when the Go file holding it is edited, the
// text chunks are no base for the Go file's chunks.
func TestEditNeedsSameLanguage(t *testing.T) {
	src := "package calc\n\n// Add returns a + b.\nfunc Add(a, b int) int {\n\treturn a + b\n}\n"
	r := gittest.New(t)
	r.Commit("base", map[string]string{"a-copy.txt": src, "calc.go": src})
	emb := embed.Default()
	indexRevs(t, r.Dir, emb, "HEAD")
	next := src + "\n// Sub returns a - b.\nfunc Sub(a, b int) int {\n\treturn a - b\n}\n"
	r.Commit("edit", map[string]string{"calc.go": next})
	sum := indexRevs(t, r.Dir, emb, "HEAD")
	if sum.BlobsNew != 1 || sum.BlobsEdited != 0 {
		t.Fatalf("%d new blobs, %d chunked from the previous version; want 1 and 0", sum.BlobsNew, sum.BlobsEdited)
	}
	rows := blobRows(t, openSnap(t, r.Dir, emb), r.Git("rev-parse", "HEAD:calc.go"))
	if len(rows) != 3 || rows[0].Language != "go" || rows[2].Name != "Sub" {
		t.Fatalf("edited Go file rows = %+v, want the file, Add and Sub", rows)
	}
}
