package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/bcindex/bcindex/internal/reserved"
)

// A source is one pinned package of the corpus (a line of sources.txt).
type source struct {
	Kind    string // go, goroot, npm, deb, debzip, debsrc
	Name    string
	Version string
	Split   string   // "train", "eval", "suite-dev" or "suite-test"
	Keep    []string // path prefixes to keep (empty: all)
	Drop    []string // path prefixes to drop
}

// dirName is the source's directory name inside the cache.
func (s source) dirName() string {
	return strings.NewReplacer("/", "_", "@", "_").Replace(s.Kind + "-" + s.Name + "@" + s.Version)
}

func (s source) String() string { return s.Kind + " " + s.Name + "@" + s.Version }

// keepPath applies the source's path filter to a path relative to its root.
func (s source) keepPath(p string) bool {
	for _, d := range s.Drop {
		if strings.HasPrefix(p, d) {
			return false
		}
	}
	if len(s.Keep) == 0 {
		return true
	}
	for _, k := range s.Keep {
		if strings.HasPrefix(p, k) {
			return true
		}
	}
	return false
}

// isSuite reports whether a split belongs to the search quality suite.
func isSuite(split string) bool { return split == "suite-dev" || split == "suite-test" }

// readSources parses a sources.txt file and returns its training corpus
// (train and eval entries). Suite entries are left out, and a train entry
// that would read any of a suite package's files is an error: the quality
// suite measures the model on code it never saw.
func readSources(path string) ([]source, error) {
	all, err := readAllSources(path)
	if err != nil {
		return nil, err
	}
	var out, suite []source
	for _, s := range all {
		if isSuite(s.Split) {
			suite = append(suite, s)
		} else {
			out = append(out, s)
		}
	}
	for _, t := range out {
		for _, s := range suite {
			if t.Split == "train" && overlaps(t, s) {
				return nil, fmt.Errorf("%s: train entry %s reads files of the quality suite's %s (%s)", path, t, s, s.Split)
			}
		}
	}
	return out, nil
}

// overlaps reports whether training source t would read any file of suite
// source s: the same package (any version) unless t's filter drops every
// path prefix s keeps.
func overlaps(t, s source) bool {
	if t.Kind != s.Kind || !strings.EqualFold(t.Name, s.Name) {
		return false
	}
	if len(s.Keep) == 0 {
		return true
	}
	for _, k := range s.Keep {
		if t.keepPath(k) {
			return true
		}
	}
	return false
}

// readAllSources parses every entry of a sources.txt file.
func readAllSources(path string) ([]source, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read sources: %w", err)
	}
	var out []source
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' {
			continue
		}
		f := strings.Fields(line)
		if len(f) < 4 || len(f) > 5 {
			return nil, fmt.Errorf("%s:%d: want kind name version split [filter]", path, n)
		}
		s := source{Kind: f[0], Name: f[1], Version: f[2], Split: f[3]}
		if s.Split != "train" && s.Split != "eval" && !isSuite(s.Split) {
			return nil, fmt.Errorf("%s:%d: split %q is not train, eval, suite-dev or suite-test", path, n, s.Split)
		}
		// The reserved packages (spf13/cobra, gin-gonic/gin, psf/requests,
		// pallets/click, commander, google/gson: package reserved, which
		// the benchmarks ask too) are kept out of every training, tuning
		// and evaluation set.
		if reserved.Is(s.Name) {
			return nil, fmt.Errorf("%s:%d: %s is reserved for independent evaluation", path, n, s.Name)
		}
		// The ranking benchmarks' repositories (semble's held-out set and
		// the dev suite, package reserved) are never trained or evaluated
		// on; the quality suite's packages are measured, not trained.
		if repo, ok := reserved.HeldOut(s.Name); ok && !isSuite(s.Split) {
			return nil, fmt.Errorf("%s:%d: %s is the code of %s, a ranking benchmark's repository: remove the line", path, n, s.Name, repo)
		}
		if len(f) == 5 {
			for _, p := range strings.Split(f[4], ",") {
				if d, ok := strings.CutPrefix(p, "-"); ok {
					s.Drop = append(s.Drop, d)
				} else if p != "" {
					s.Keep = append(s.Keep, p)
				}
			}
		}
		out = append(out, s)
	}
	return out, nil
}

// pinSources rewrites the version field of each training source line in
// path (srcs as readSources returned them); suite lines stay as they are.
func pinSources(path string, srcs []source) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("pin sources: %w", err)
	}
	lines := strings.Split(string(data), "\n")
	i := 0
	for n, line := range lines {
		t := strings.TrimSpace(line)
		if t == "" || t[0] == '#' {
			continue
		}
		f := strings.Fields(t)
		if len(f) >= 4 && isSuite(f[3]) {
			continue
		}
		// The file is read again here: if it was edited while fetching,
		// writing versions by position would give packages each other's.
		if i >= len(srcs) || len(f) < 4 || f[0] != srcs[i].Kind || f[1] != srcs[i].Name {
			return fmt.Errorf("pin sources: %s changed during the fetch (line %d); run fetch -pin again", path, n+1)
		}
		f[2] = srcs[i].Version
		lines[n] = strings.Join(f, " ")
		i++
	}
	if i != len(srcs) {
		return fmt.Errorf("pin sources: %s changed during the fetch; run fetch -pin again", path)
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		return fmt.Errorf("pin sources: %w", err)
	}
	return os.Rename(tmp, filepath.Clean(path))
}
