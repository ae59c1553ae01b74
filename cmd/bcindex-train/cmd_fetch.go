package main

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	"github.com/bcindex/bcindex/train"
)

// fetchWorkers is how many sources are fetched at once: each is mostly
// waiting on a registry.
const fetchWorkers = 6

// fetch makes every source available under cache/src and returns, per source,
// the directory holding its files. Versions "latest" are resolved in place.
func fetch(ctx context.Context, cache string, srcs []source, logf func(string, ...any)) ([]string, error) {
	prefetchDebs(ctx, cache, srcs, logf)
	dirs := make([]string, len(srcs))
	errs := make([]error, len(srcs))
	// Two lines of one package (its train and eval parts) share a
	// directory: one fetches it while the other waits.
	locks := map[string]*sync.Mutex{}
	for _, s := range srcs {
		if locks[s.dirName()] == nil {
			locks[s.dirName()] = new(sync.Mutex)
		}
	}
	var wg sync.WaitGroup
	next := make(chan int)
	for range fetchWorkers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				s := &srcs[i]
				mu := locks[s.dirName()]
				mu.Lock()
				dir, err := fetchOne(ctx, cache, s)
				mu.Unlock()
				if err != nil {
					// Keep going: one unavailable package should not hide the others.
					errs[i] = fmt.Errorf("fetch %s: %w", s, err)
					logf("%v", errs[i])
					continue
				}
				logf("fetched %s -> %s", s, dir)
				dirs[i] = dir
			}
		}()
	}
	for i := range srcs {
		if ctx.Err() != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	return dirs, errors.Join(errs...)
}

// prefetchDebs downloads the pinned Debian packages not yet unpacked into
// cache/debs with one apt-get call per hundred: apt-get loads its package
// lists once per call, which costs more than most downloads. A batch that
// fails is left to fetchOne, one package at a time.
func prefetchDebs(ctx context.Context, cache string, srcs []source, logf func(string, ...any)) {
	dir := filepath.Join(cache, "debs")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return
	}
	var want []string
	for _, s := range srcs {
		if (s.Kind != "deb" && s.Kind != "debzip") || s.Version == "latest" || done(filepath.Join(cache, "src", s.dirName())) {
			continue
		}
		if m, _ := filepath.Glob(filepath.Join(dir, debFileGlob(s))); len(m) == 1 {
			continue
		}
		want = append(want, s.Name+"="+s.Version)
	}
	for len(want) > 0 && ctx.Err() == nil {
		n := min(len(want), 100)
		if _, err := runCmd(ctx, dir, "apt-get", append([]string{"download", "-q"}, want[:n]...)...); err != nil {
			logf("prefetch: %v", err)
		}
		want = want[n:]
	}
}

// debFileGlob matches the file apt-get download writes for a source:
// name_version_arch.deb, with an epoch's colon written %3a.
func debFileGlob(s source) string {
	return s.Name + "_" + strings.ReplaceAll(s.Version, ":", "%3a") + "_*.deb"
}

func fetchOne(ctx context.Context, cache string, s *source) (string, error) {
	switch s.Kind {
	case "goroot":
		v := strings.TrimPrefix(runtime.Version(), "go")
		if s.Version != "latest" && s.Version != v {
			return "", fmt.Errorf("pinned Go %s, running %s", s.Version, v)
		}
		s.Version = v
		return filepath.Join(runtime.GOROOT(), "src"), nil
	case "go":
		out, err := runCmd(ctx, os.TempDir(), "go", "mod", "download", "-json", s.Name+"@"+s.Version)
		if err != nil {
			return "", err
		}
		var m struct{ Version, Dir, Error string }
		if err := json.Unmarshal(out, &m); err != nil {
			return "", fmt.Errorf("go mod download: %w", err)
		}
		if m.Error != "" {
			return "", fmt.Errorf("go mod download: %s", m.Error)
		}
		s.Version = m.Version
		return m.Dir, nil
	case "npm":
		if s.Version == "latest" {
			out, err := runCmd(ctx, os.TempDir(), "npm", "view", s.Name+"@latest", "version")
			if err != nil {
				return "", err
			}
			s.Version = strings.TrimSpace(string(out))
		}
		dir := filepath.Join(cache, "src", s.dirName())
		if done(dir) {
			return dir, nil
		}
		tmp, err := os.MkdirTemp(cache, "npm-")
		if err != nil {
			return "", err
		}
		defer os.RemoveAll(tmp)
		if _, err := runCmd(ctx, tmp, "npm", "pack", "--silent", s.Name+"@"+s.Version); err != nil {
			return "", err
		}
		tgz, _ := filepath.Glob(filepath.Join(tmp, "*.tgz"))
		if len(tgz) != 1 {
			return "", fmt.Errorf("npm pack left %d archives", len(tgz))
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return "", err
		}
		if _, err := runCmd(ctx, dir, "tar", "xzf", tgz[0]); err != nil {
			return "", err
		}
		return dir, markDone(dir)
	case "deb", "debzip":
		if s.Version == "latest" {
			out, err := runCmd(ctx, os.TempDir(), "apt-cache", "policy", s.Name)
			if err != nil {
				return "", err
			}
			for _, l := range strings.Split(string(out), "\n") {
				if v, ok := strings.CutPrefix(strings.TrimSpace(l), "Candidate:"); ok {
					s.Version = strings.TrimSpace(v)
				}
			}
			if s.Version == "latest" || s.Version == "(none)" {
				return "", fmt.Errorf("apt-cache policy: no candidate (run apt-get update)")
			}
		}
		dir := filepath.Join(cache, "src", s.dirName())
		if done(dir) {
			return dir, nil
		}
		tmp, err := os.MkdirTemp(cache, "deb-")
		if err != nil {
			return "", err
		}
		defer os.RemoveAll(tmp)
		debs, _ := filepath.Glob(filepath.Join(cache, "debs", debFileGlob(*s)))
		if len(debs) != 1 {
			if _, err := runCmd(ctx, tmp, "apt-get", "download", s.Name+"="+s.Version); err != nil {
				return "", err
			}
			debs, _ = filepath.Glob(filepath.Join(tmp, "*.deb"))
		}
		if len(debs) != 1 {
			return "", fmt.Errorf("apt-get download left %d packages", len(debs))
		}
		// The package is unpacked beside the cache's src/ and moved there
		// whole, so that a fresh cache (no src/ yet) and another fetch of
		// the same package at once both end with one complete tree.
		x := filepath.Join(tmp, "x")
		if _, err := runCmd(ctx, tmp, "dpkg-deb", "-x", debs[0], x); err != nil {
			return "", err
		}
		if s.Kind == "debzip" {
			z := filepath.Join(tmp, "z")
			if err := os.MkdirAll(z, 0o755); err != nil {
				return "", err
			}
			if err := unzipSources(x, z); err != nil {
				return "", err
			}
			x = z
		}
		if err := markDone(x); err != nil {
			return "", err
		}
		if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
			return "", err
		}
		if err := os.Rename(x, dir); err != nil && !done(dir) {
			// A tree an earlier fetch left unfinished: replace it.
			os.RemoveAll(dir)
			if err := os.Rename(x, dir); err != nil && !done(dir) {
				return "", fmt.Errorf("unpack %s: %w", s, err)
			}
		}
		os.Remove(debs[0])
		return dir, nil
	case "debsrc":
		return fetchDebSource(ctx, cache, s)
	}
	return "", fmt.Errorf("unknown kind %q", s.Kind)
}

// fetchDebSource unpacks a Debian source package (apt-get source, which
// needs deb-src lines in APT's sources, then dpkg-source -x with Debian's
// patches applied).
func fetchDebSource(ctx context.Context, cache string, s *source) (string, error) {
	if s.Version == "latest" {
		out, err := runCmd(ctx, os.TempDir(), "apt-cache", "showsrc", "--only-source", s.Name)
		if err != nil {
			return "", err
		}
		for _, l := range strings.Split(string(out), "\n") {
			if v, ok := strings.CutPrefix(l, "Version:"); ok {
				s.Version = strings.TrimSpace(v)
				break
			}
		}
		if s.Version == "latest" {
			return "", fmt.Errorf("apt-cache showsrc: no source package %s (enable deb-src in APT's sources, then apt-get update)", s.Name)
		}
	}
	dir := filepath.Join(cache, "src", s.dirName())
	if done(dir) {
		return dir, nil
	}
	tmp, err := os.MkdirTemp(cache, "debsrc-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	if _, err := runCmd(ctx, tmp, "apt-get", "source", "--download-only", "-q", s.Name+"="+s.Version); err != nil {
		return "", fmt.Errorf("%w (deb-src lines in APT's sources and apt-get update are needed)", err)
	}
	dscs, _ := filepath.Glob(filepath.Join(tmp, "*.dsc"))
	if len(dscs) != 1 {
		return "", fmt.Errorf("apt-get source left %d .dsc files", len(dscs))
	}
	os.RemoveAll(dir)
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return "", err
	}
	if _, err := runCmd(ctx, tmp, "dpkg-source", "--no-check", "-x", dscs[0], dir); err != nil {
		return "", err
	}
	return dir, markDone(dir)
}

// unzipSources extracts every src.zip found under root into dir.
func unzipSources(root, dir string) error {
	var zips []string
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() && d.Name() == "src.zip" {
			zips = append(zips, p)
		}
		return nil
	})
	if len(zips) == 0 {
		return fmt.Errorf("no src.zip in package")
	}
	for _, z := range zips {
		r, err := zip.OpenReader(z)
		if err != nil {
			return fmt.Errorf("unzip %s: %w", z, err)
		}
		for _, f := range r.File {
			if f.FileInfo().IsDir() || !train.IsSourceFile(f.Name) {
				continue
			}
			dst := filepath.Join(dir, filepath.FromSlash(f.Name))
			if !strings.HasPrefix(dst, filepath.Clean(dir)+string(os.PathSeparator)) {
				continue // zip slip
			}
			if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
				r.Close()
				return err
			}
			rc, err := f.Open()
			if err != nil {
				r.Close()
				return err
			}
			data, err := io.ReadAll(rc)
			rc.Close()
			if err == nil {
				err = os.WriteFile(dst, data, 0o644)
			}
			if err != nil {
				r.Close()
				return fmt.Errorf("unzip %s: %w", f.Name, err)
			}
		}
		r.Close()
	}
	return nil
}

func done(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, ".bcindex-fetched"))
	return err == nil
}

func markDone(dir string) error {
	return os.WriteFile(filepath.Join(dir, ".bcindex-fetched"), nil, 0o644)
}

// runCmd runs a command in dir and returns its standard output.
func runCmd(ctx context.Context, dir, name string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GO111MODULE=on")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("%s %s: %w: %s", name, strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return stdout.Bytes(), nil
}
