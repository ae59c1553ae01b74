package main

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

func TestWriteProse(t *testing.T) {
	src := t.TempDir()
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte("= Rack\nusage\n"))
	zw.Close()
	files := map[string][]byte{
		"usr/share/doc/rack/README.rdoc.gz":       gz.Bytes(),
		"usr/share/doc/rack/changelog.Debian.gz":  []byte("debian"),
		"usr/share/doc/rack/changelog":            []byte("upstream"),
		"package/README.md":                       []byte("top"),
		"package/src/README.md":                   []byte("src"),
		"package/LICENSE.md":                      []byte("licence"),
		"package/SECURITY.md":                     []byte("security"),
		"package/notes.txt":                       []byte("notes"),
		"package/History.java":                    []byte("class History {}"),
		"package/.github/bug_report.md":           []byte("template"),
		"package/vendor/other/README.md":          []byte("vendored"),
		"package/pyparsing.egg-info/PKG-INFO.txt": []byte("egg"),
		"package/main.go":                         []byte("package main"),
	}
	for p, b := range files {
		dst := filepath.Join(src, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := t.TempDir()
	n, err := writeProse(src, out)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"docs/README.md":     "top",
		"docs/src-README.md": "src",
		"docs/notes.txt":     "notes",
		"docs/changelog":     "upstream",
		"docs/README.rdoc":   "= Rack\nusage\n",
	}
	var got []string
	filepath.WalkDir(out, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(out, p)
			got = append(got, filepath.ToSlash(rel))
		}
		return err
	})
	sort.Strings(got)
	if n != len(want) || len(got) != len(want) {
		t.Fatalf("wrote %d files %v, want %d", n, got, len(want))
	}
	for p, text := range want {
		b, err := os.ReadFile(filepath.Join(out, filepath.FromSlash(p)))
		if err != nil {
			t.Fatalf("%s: %v (wrote %s)", p, err, strings.Join(got, ", "))
		}
		if string(b) != text {
			t.Errorf("%s = %q, want %q", p, b, text)
		}
	}
}
