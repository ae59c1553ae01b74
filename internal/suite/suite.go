// Package suite loads the multilingual quality suite for tests: the
// suite-dev and suite-test packages of cmd/bcindex-train/sources.txt
// (public packages from the Go module proxy, npm and Debian, never trained
// on), prepared by `bcindex-train suite` into a cache outside the
// repository. Each package comes twice, docs kept and docs stripped, with
// two query sets: documented functions' first doc sentences (answered by
// the function) and names defined once (answered by their definition).
// Local search (package search) and the cluster (package cluster) are
// measured on the same packages and queries.
package suite

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bcindex/bcindex/chunk"
	"github.com/bcindex/bcindex/internal/gittest"
)

// Query is a query and the definition that answers it.
type Query struct {
	Query, Path, Name string
}

// Package is one package as `bcindex-train suite` describes it.
type Package struct {
	Name  string  `json:"name"`
	Split string  `json:"split"` // suite-dev (tuned on) or suite-test (reported only)
	Lang  string  `json:"lang"`
	Dir   string  `json:"dir"` // under the suite's directory; holds kept/ and stripped/
	Doc   []Query `json:"doc"`
	Names []Query `json:"names"`
}

// Load prepares the suite (once per sources.txt and chunker version) and
// returns its directory and packages. root is the repository's top
// directory relative to the test's (".." from a package directory). Where
// the registries cannot be reached the test is skipped, or fails under
// BCINDEX_CI.
func Load(t testing.TB, root string) (string, []Package) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, "cmd", "bcindex-train", "sources.txt"))
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(append(data, byte(chunk.Version)))
	cache, err := os.UserCacheDir()
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(cache, "bcindex-suite", hex.EncodeToString(sum[:8]))
	manifest := filepath.Join(dir, "suite.json")
	if _, err := os.Stat(manifest); err != nil {
		cmd := exec.Command("go", "run", "./cmd/bcindex-train", "suite",
			"-sources", "cmd/bcindex-train/sources.txt", "-cache", filepath.Join(cache, "bcindex-train"), "-out", dir)
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			os.RemoveAll(dir)
			msg := fmt.Sprintf("quality suite: cannot fetch its packages (needs the Go module proxy, npm and Debian: run apt-get update): %v\n%s", err, lastLines(out, 5))
			if os.Getenv("BCINDEX_CI") != "" {
				t.Fatal(msg)
			}
			t.Skip(msg)
		}
	}
	b, err := os.ReadFile(manifest)
	if err != nil {
		t.Fatal(err)
	}
	var pkgs []Package
	if err := json.Unmarshal(b, &pkgs); err != nil {
		t.Fatalf("%s: %v", manifest, err)
	}
	return dir, pkgs
}

func lastLines(b []byte, n int) string {
	ls := strings.Split(strings.TrimSpace(string(b)), "\n")
	return strings.Join(ls[max(0, len(ls)-n):], "\n")
}

// Commit commits the files under dir (one variant of a package) to a new
// repository.
func Commit(t testing.TB, dir string) *gittest.Repo {
	t.Helper()
	r := gittest.New(t)
	files := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		b, err := os.ReadFile(p)
		files[filepath.ToSlash(rel)] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	r.Write(files)
	r.Git("add", "-A")
	r.Git("commit", "-qm", "corpus")
	return r
}

// Sample returns n queries spread evenly over qs (all of them when there
// are no more than n).
func Sample(qs []Query, n int) []Query {
	if len(qs) <= n {
		return qs
	}
	out := make([]Query, 0, n)
	for i := 0; i < n; i++ {
		out = append(out, qs[i*len(qs)/n])
	}
	return out
}

// GoModules returns the module paths (lower case) of the suite's Go
// packages, read from sources.txt without preparing the suite: what a
// benchmark that reads the module cache must leave out. root is as in
// Load.
func GoModules(t testing.TB, root string) map[string]bool {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, "cmd", "bcindex-train", "sources.txt"))
	if err != nil {
		t.Fatalf("read the quality suite's packages: %v", err)
	}
	mods := map[string]bool{}
	for _, line := range strings.Split(string(data), "\n") {
		if fs := strings.Fields(line); len(fs) >= 4 && fs[0] == "go" && strings.HasPrefix(fs[3], "suite") {
			mods[strings.ToLower(fs[1])] = true
		}
	}
	return mods
}
