// Package suite loads the multilingual quality suite for tests: the
// suite-dev and suite-test packages of cmd/bcindex-train/sources.txt
// (public packages from the Go module proxy, npm and Debian, never trained
// on), prepared by `bcindex-train suite` into a cache outside the
// repository. Each package comes twice, docs kept and docs stripped, with
// two query sets: documented functions' first doc sentences (answered by
// the function) and names defined once (answered by their definition); a
// third set, questions written by people (questions.go), is asked of the
// sources with docs kept together with the package's documentation.
// Local search (package search) and the cluster (package cluster) are
// measured on the same packages and queries.
package suite

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bcindex/bcindex/chunk"
	"github.com/bcindex/bcindex/internal/testkit/gittest"
)

// Query is a query and the definition that answers it.
type Query struct {
	Query, Path, Name string
}

// FormatVersion changes whenever what `bcindex-train suite` writes
// changes, so that a cache written by an older version is rebuilt.
// 2: each package's documentation under prose/docs/.
const FormatVersion = 2

// Package is one package as `bcindex-train suite` describes it, with its
// questions (questions.go).
type Package struct {
	Name  string  `json:"name"`
	Split string  `json:"split"` // suite-dev (tuned on) or suite-test (reported only)
	Lang  string  `json:"lang"`
	Dir   string  `json:"dir"` // under the suite's directory; holds kept/, stripped/ and prose/
	Doc   []Query `json:"doc"`
	Names []Query `json:"names"`
	// Questions are search/testdata/questions/<Dir>.json's, asked of
	// kept/ and prose/ committed together (QuestionDirs).
	Questions []Question `json:"-"`
}

// QuestionDirs are the directories the package's questions are asked of,
// for Commit: its sources with docs kept and its documentation.
func (p Package) QuestionDirs(dir string) []string {
	return []string{filepath.Join(dir, p.Dir, "kept"), filepath.Join(dir, p.Dir, "prose")}
}

// Load prepares the suite (once per sources.txt, chunker version and
// format version) and returns its directory and packages with their
// questions. root is the repository's top directory relative to the test's
// (".." from a package directory). Where the registries cannot be reached
// the test is skipped, or fails under BCINDEX_CI; a question file that does
// not hold fails the test.
func Load(t testing.TB, root string) (string, []Package) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, "cmd", "bcindex-train", "sources.txt"))
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(append(data, byte(chunk.Version), byte(FormatVersion)))
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
	if err := AttachQuestions(filepath.Join(root, QuestionsDir), dir, pkgs); err != nil {
		t.Fatalf("question suite: %v", err)
	}
	return dir, pkgs
}

func lastLines(b []byte, n int) string {
	ls := strings.Split(strings.TrimSpace(string(b)), "\n")
	return strings.Join(ls[max(0, len(ls)-n):], "\n")
}

// Commit commits the files under dirs (one variant of a package, or
// QuestionDirs) to a new repository, each at its path below its directory.
// A directory that does not exist adds nothing (a package without
// documentation).
func Commit(t testing.TB, dirs ...string) *gittest.Repo {
	t.Helper()
	r := gittest.New(t)
	files := map[string]string{}
	for _, dir := range dirs {
		err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if errors.Is(err, fs.ErrNotExist) && p == dir {
				return filepath.SkipAll
			}
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
