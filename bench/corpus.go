package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
)

// corpus is the source tree committed into the benchmark repository.
type corpus struct {
	Name  string   // what it is, for the report
	Files []string // slash paths in the work tree, sorted
	Bytes int64    // all files
	// Indexable files, bytes and lines: text files up to 1 MiB outside
	// vendored directories, an approximation of what the indexer keeps.
	IndexFiles int
	IndexBytes int64
	Lines      int64
}

// source is one directory copied into the work tree under prefix.
type source struct {
	dir, prefix, name string
}

// fetchModule downloads module@version through the module proxy (or the
// local module cache) and returns its directory.
func fetchModule(ctx context.Context, tmp, module, version string) (string, error) {
	// The plain environment: the harness's own HOME would move GOMODCACHE.
	r := &runner{env: append(os.Environ(), "GO111MODULE=on", "GOFLAGS=-mod=mod")}
	p, err := r.run(ctx, tmp, nil, []int{1}, "go", "mod", "download", "-json", module+"@"+version)
	if err != nil {
		return "", fmt.Errorf("fetch corpus module: %w", err)
	}
	var info struct{ Dir, Error string }
	if err := json.Unmarshal(p.Stdout, &info); err != nil {
		return "", fmt.Errorf("fetch corpus module %s@%s: read go output: %w", module, version, err)
	}
	if info.Error != "" || p.Exit != 0 {
		return "", fmt.Errorf("fetch corpus module %s@%s: %s (offline? set GOPROXY=off with a filled module cache, or pick another -module)", module, version, info.Error)
	}
	return info.Dir, nil
}

// corpusSources lists what the configuration puts in the repository.
func corpusSources(ctx context.Context, cfg Config, tmp string) ([]source, error) {
	goroot := runtime.GOROOT()
	if cfg.Quick {
		return []source{{filepath.Join(goroot, "src", "net"), "net", "GOROOT/src/net"}}, nil
	}
	var srcs []source
	if cfg.Module != "" {
		dir, err := fetchModule(ctx, tmp, cfg.Module, cfg.Version)
		if err != nil {
			return nil, err
		}
		srcs = append(srcs, source{dir, path.Base(cfg.Module), cfg.Module + "@" + cfg.Version})
	}
	if cfg.GOROOTSrc {
		srcs = append(srcs, source{filepath.Join(goroot, "src"), "go/src", "GOROOT/src (" + runtime.Version() + ")"})
	}
	return srcs, nil
}

// copySources copies every regular file of srcs into work.
func copySources(ctx context.Context, srcs []source, work string) (*corpus, error) {
	c := &corpus{}
	var names []string
	for _, s := range srcs {
		names = append(names, s.name)
		err := filepath.WalkDir(s.dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if err := ctx.Err(); err != nil {
				return err
			}
			if d.IsDir() {
				if d.Name() == ".git" {
					return filepath.SkipDir
				}
				return nil
			}
			if !d.Type().IsRegular() {
				return nil
			}
			rel, err := filepath.Rel(s.dir, p)
			if err != nil {
				return err
			}
			dst := path.Join(s.prefix, filepath.ToSlash(rel))
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			if err := writeFile(filepath.Join(work, filepath.FromSlash(dst)), data); err != nil {
				return err
			}
			c.add(dst, data)
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("copy %s: %w", s.dir, err)
		}
	}
	sort.Strings(c.Files)
	c.Name = strings.Join(names, " + ")
	return c, nil
}

func (c *corpus) add(p string, data []byte) {
	c.Files = append(c.Files, p)
	c.Bytes += int64(len(data))
	if indexable(p, data) {
		c.IndexFiles++
		c.IndexBytes += int64(len(data))
		c.Lines += int64(bytes.Count(data, []byte{'\n'}))
	}
}

// indexable approximates the indexer's skip rules (size, binary, vendored).
func indexable(p string, data []byte) bool {
	if len(data) > 1<<20 || bytes.IndexByte(data[:min(len(data), 8000)], 0) >= 0 {
		return false
	}
	for _, v := range []string{"vendor/", "node_modules/", "third_party/"} {
		if strings.HasPrefix(p, v) || strings.Contains(p, "/"+v) {
			return false
		}
	}
	return true
}

func writeFile(p string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return os.WriteFile(p, data, 0o644)
}

// goFiles returns the corpus's indexable .go files, the ones the harness
// edits to make later commits.
func (c *corpus) goFiles(work string) []string {
	var out []string
	for _, f := range c.Files {
		if strings.HasSuffix(f, ".go") && !strings.Contains(f, "/testdata/") && indexableAt(work, f) {
			out = append(out, f)
		}
	}
	return out
}

func indexableAt(work, f string) bool {
	data, err := os.ReadFile(filepath.Join(work, filepath.FromSlash(f)))
	return err == nil && indexable(f, data) && !bytes.Contains(data[:min(len(data), 2000)], []byte("DO NOT EDIT"))
}

// appendFunc adds a small function at the end of a Go file: the kind of
// change a commit makes, and one that keeps the file parseable.
func appendFunc(work, f string, n int) error {
	p := filepath.Join(work, filepath.FromSlash(f))
	data, err := os.ReadFile(p)
	if err != nil {
		return err
	}
	data = fmt.Appendf(data, "\n// benchChange%d was added by bcindex-bench.\nfunc benchChange%d() int { return %d }\n", n, n, n)
	return os.WriteFile(p, data, 0o644)
}
