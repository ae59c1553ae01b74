package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/bcindex/bcindex/train"
)

// The question suite (search/testdata/questions) asks about usage and
// configuration as well as code, so each package's documentation is written
// beside its sources: prose/docs/<name>, searched together with kept/.

// proseNames are the base-name prefixes (upper case) of documentation files.
var proseNames = []string{"README", "CHANGELOG", "CHANGES", "HISTORY", "NEWS", "CONTRIBUTING", "UPGRADING"}

// proseExts are the extensions of documentation files.
var proseExts = map[string]bool{".md": true, ".markdown": true, ".rst": true, ".rdoc": true, ".txt": true}

// isProse reports whether a file (its base name without .gz) is
// documentation: licences, security policies and Debian's own changelog
// say nothing about the package's code or use.
func isProse(base string) bool {
	up := strings.ToUpper(base)
	for _, p := range []string{"LICENSE", "LICENCE", "COPYING", "SECURITY", "CHANGELOG.DEBIAN"} {
		if strings.HasPrefix(up, p) {
			return false
		}
	}
	if train.IsSourceFile(base) {
		return false // History.java is code
	}
	for _, p := range proseNames {
		if strings.HasPrefix(up, p) {
			return true
		}
	}
	return proseExts[strings.ToLower(path.Ext(base))]
}

// writeProse copies the documentation found anywhere under dir (the
// unpacked package) to out/docs/, gunzipped, and returns how many files it
// wrote. A second file with a base name already written takes its parent
// directory's name as a prefix.
func writeProse(dir, out string) (int, error) {
	written := map[string]bool{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			// Hidden directories hold issue templates and CI files;
			// egg-info holds a copy of the README.
			if n := d.Name(); p != dir && (strings.HasPrefix(n, ".") || skipDir(n) || strings.HasSuffix(n, "egg-info")) {
				return filepath.SkipDir
			}
			return nil
		}
		base := strings.TrimSuffix(d.Name(), ".gz")
		if !d.Type().IsRegular() || !isProse(base) {
			return nil
		}
		name := base
		if written[name] {
			name = filepath.Base(filepath.Dir(p)) + "-" + base
		}
		if written[name] {
			return fmt.Errorf("two documentation files would be written to docs/%s (second: %s)", name, p)
		}
		data, err := readMaybeGzip(p)
		if err != nil {
			return err
		}
		dst := filepath.Join(out, "docs", name)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		written[name] = true
		return os.WriteFile(dst, data, 0o644)
	})
	if err != nil {
		return 0, fmt.Errorf("suite: write documentation: %w", err)
	}
	return len(written), nil
}

// readMaybeGzip reads a file, gunzipped when its name ends in .gz.
func readMaybeGzip(p string) ([]byte, error) {
	data, err := os.ReadFile(p)
	if err != nil || !strings.HasSuffix(p, ".gz") {
		return data, err
	}
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("gunzip %s: %w", p, err)
	}
	defer zr.Close()
	out, err := io.ReadAll(zr)
	if err != nil {
		return nil, fmt.Errorf("gunzip %s: %w", p, err)
	}
	return out, nil
}
