package cluster

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/indexer"
	"github.com/bcindex/bcindex/internal/reserved"
	"github.com/bcindex/bcindex/internal/testkit/suite"
	"github.com/bcindex/bcindex/store"
)

type benchRepo struct{ name, dir string }

// benchCorpus returns the org bench's repositories, each indexed locally:
// GOROOT/src (unless BCINDEX_BENCH_NOGOROOT is set), then the largest
// modules of the module cache with 1 to BCINDEX_BENCH_MAXMB (default 40)
// MB of Go, until there are BCINDEX_BENCH_REPOS of them (default 20) and,
// with BCINDEX_BENCH_CHUNKS=N, their distinct chunk contents number at
// least N. Each is committed once to ~/.cache/bcindex-cluster-bench and
// reused. It also returns the number of chunk occurrences (chunks with
// text of their own) and of distinct chunk contents.
func benchCorpus(b *testing.B) (repos []benchRepo, occurrences, distinct int) {
	ctx := context.Background()
	want, target := envInt("BCINDEX_BENCH_REPOS", 20), envInt("BCINDEX_BENCH_CHUNKS", 0)
	home, _ := os.UserHomeDir()
	cache := filepath.Join(home, ".cache", "bcindex-cluster-bench")
	seen := map[[16]byte]struct{}{}
	start := time.Now()
	for _, s := range benchCandidates(b) {
		if len(repos) >= want && len(seen) >= target {
			break
		}
		dir := filepath.Join(cache, strings.ReplaceAll(s.name, "/", "_"))
		if _, err := os.Stat(filepath.Join(dir, ".git", "bcindex-bench-done")); err != nil {
			if err := copyToRepo(s.dir, dir); err != nil {
				b.Fatalf("copy %s to a repository: %v", s.name, err)
			}
		}
		n, err := indexBench(ctx, dir, seen)
		if err != nil {
			b.Fatalf("index %s: %v", s.name, err)
		}
		repos, occurrences = append(repos, benchRepo{s.name, dir}), occurrences+n
		// Indexing a large corpus takes minutes: say how far it is.
		fmt.Fprintf(os.Stderr, "corpus: %s indexed, %d chunks; %d repositories, %d distinct chunks in %s\n",
			s.name, n, len(repos), len(seen), time.Since(start).Round(time.Second))
	}
	if len(repos) < want || len(seen) < target {
		b.Logf("the module cache holds only %d repositories of %d distinct chunks (asked %d and %d): go mod download more",
			len(repos), len(seen), want, target)
	}
	return repos, occurrences, len(seen)
}

// indexBench indexes the repository at dir, adds the content hashes of its
// chunks to distinct and returns how many chunks with text it has.
func indexBench(ctx context.Context, dir string, distinct map[[16]byte]struct{}) (int, error) {
	repo, err := gitindex.OpenRepo(dir)
	if err != nil {
		return 0, err
	}
	defer repo.Close()
	if _, err := indexer.NewIndexer(repo, indexer.Options{Embedder: embed.Default()}).Index(ctx, []string{"HEAD"}, time.Minute); err != nil {
		return 0, err
	}
	snap, err := store.OpenSnapshot(repo.IndexDir, embed.Default().ID())
	if err != nil {
		return 0, fmt.Errorf("open the index: %w", err)
	}
	defer snap.Close()
	n := 0
	for _, seg := range snap.Segments {
		for i := 0; i < seg.Rows(); i++ {
			if h, ok := seg.RowHash(i); ok {
				distinct[h] = struct{}{}
				n++
			}
		}
	}
	return n, nil
}

// benchCandidates lists GOROOT/src and then the modules of the module
// cache, largest first, one version of each.
func benchCandidates(b *testing.B) []benchRepo {
	var srcs []benchRepo
	if os.Getenv("BCINDEX_BENCH_NOGOROOT") == "" {
		srcs = append(srcs, benchRepo{"go.dev/goroot", filepath.Join(runtime.GOROOT(), "src")})
	}
	out, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		b.Fatalf("go env GOMODCACHE: %v", err)
	}
	modcache := strings.TrimSpace(string(out))
	var mods []string // module directories: path@version
	filepath.WalkDir(modcache, func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil || !d.IsDir():
			return nil
		case p == filepath.Join(modcache, "cache"):
			return filepath.SkipDir
		case strings.Contains(d.Name(), "@"):
			mods = append(mods, p)
			return filepath.SkipDir
		}
		return nil
	})
	type mod struct {
		benchRepo
		size int64
	}
	var cands []mod
	maxMB := int64(envInt("BCINDEX_BENCH_MAXMB", 40))
	excluded := excludedModules(b)
	seen := map[string]bool{}
	sort.Sort(sort.Reverse(sort.StringSlice(mods))) // the newest-named version of a module first
	for _, m := range mods {
		rel, _ := filepath.Rel(modcache, m)
		name := rel[:strings.LastIndex(rel, "@")]
		if seen[name] || strings.Contains(rel, "!") || excluded(name) {
			continue
		}
		if size := goBytes(m); size >= 1<<20 && size <= maxMB<<20 {
			seen[name] = true
			cands = append(cands, mod{benchRepo{name, m}, size})
		}
	}
	sort.SliceStable(cands, func(i, j int) bool { return cands[i].size > cands[j].size })
	for _, m := range cands {
		srcs = append(srcs, m.benchRepo)
	}
	return srcs
}

// excludedModules returns a test for the module paths the bench must not
// read: the reserved ones and the quality suite's.
func excludedModules(b *testing.B) func(string) bool {
	suiteMods := suite.GoModules(b, "..")
	return func(name string) bool { return suiteMods[strings.ToLower(name)] || reserved.Is(name) }
}

func envInt(name string, def int) int {
	if v := os.Getenv(name); v != "" {
		fmt.Sscan(v, &def)
	}
	return def
}

func goBytes(dir string) int64 {
	var n int64
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".go") {
			if fi, err := d.Info(); err == nil {
				n += fi.Size()
			}
		}
		return nil
	})
	return n
}

// copyToRepo commits the source files of src to a new repository at dir.
func copyToRepo(src, dir string) error {
	os.RemoveAll(dir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !d.Type().IsRegular() {
			return nil
		}
		switch filepath.Ext(p) {
		case ".go", ".md", ".s", ".c", ".h", ".py", ".js", ".ts", ".proto", ".yaml", ".json":
		default:
			return nil
		}
		rel, _ := filepath.Rel(src, p)
		data, err := os.ReadFile(p)
		if err != nil {
			return nil
		}
		dst := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		return os.WriteFile(dst, data, 0o644)
	})
	if err != nil {
		return err
	}
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"add", "-A"},
		{"-c", "user.name=bench", "-c", "user.email=bench@example.com", "commit", "-qm", "corpus"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("git %v: %v\n%s", args, err, out)
		}
	}
	return os.WriteFile(filepath.Join(dir, ".git", "bcindex-bench-done"), nil, 0o644)
}
