package indexer

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/internal/testkit/gittest"
	"github.com/bcindex/bcindex/internal/testkit/storetest"
)

// realSources returns this module's own sources from a few packages and
// the chunker's test files (Go, Python, JavaScript, broken code, Markdown):
// real code of many shapes and sizes.
func realSources(t *testing.T) map[string]string {
	t.Helper()
	files := map[string]string{}
	for _, dir := range []string{"../chunk", "../chunk/testdata", "../segment", "../lexical", "../ngram", "../doc"} {
		ents, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range ents {
			if e.IsDir() {
				continue
			}
			b, err := os.ReadFile(filepath.Join(dir, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			files[strings.TrimPrefix(dir, "../")+"/"+e.Name()] = string(b)
		}
	}
	// Files of many definitions, whose blob records Badger keeps in its
	// value log beside the vectors.
	for k := range 4 {
		var sb strings.Builder
		fmt.Fprintf(&sb, "package gen%d\n", k)
		for i := range 300 {
			fmt.Fprintf(&sb, "\n// Step%d advances the state by %d.\nfunc Step%d(x int) int { return x + %d }\n", i, i*k+1, i, i*k+1)
		}
		files[fmt.Sprintf("gen/g%d.go", k)] = sb.String()
	}
	return files
}

// TestIndexIsDeterministic: two indexes of one repository, each run with
// several workers and checkpoints that cut it into segments that are then
// merged, write byte-identical segment files.
func TestIndexIsDeterministic(t *testing.T) {
	src := gittest.New(t)
	src.Commit("init", realSources(t))
	clone := t.TempDir()
	src.Git("clone", "-q", src.Dir, clone)

	var got []map[string][]byte
	for _, dir := range []string{src.Dir, clone} {
		repo, err := gitindex.OpenRepo(dir)
		if err != nil {
			t.Fatal(err)
		}
		opts := Options{Embedder: embed.Default(), Workers: 4, CheckpointBlobs: 12}
		sum, err := NewIndexer(repo, opts).Index(context.Background(), []string{"HEAD"}, 0)
		if err != nil {
			t.Fatal(err)
		}
		if sum.BlobsNew < 100 || sum.Chunks < 1000 {
			t.Fatalf("indexed %d blobs, %d chunks: too few to compare", sum.BlobsNew, sum.Chunks)
		}
		got = append(got, storetest.SegmentFiles(t, repo.IndexDir))
	}
	a, b := got[0], got[1]
	var names []string
	for n := range a {
		names = append(names, n)
	}
	sort.Strings(names)
	if len(names) < 10 {
		t.Fatalf("first index wrote %d segment files: %v", len(names), names)
	}
	for _, n := range names {
		if !bytes.Equal(a[n], b[n]) {
			t.Errorf("%s differs: %d and %d bytes", n, len(a[n]), len(b[n]))
		}
	}
	for n := range b {
		if _, ok := a[n]; !ok {
			t.Errorf("%s only in the second index", n)
		}
	}
}
