package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// A Debian package already in the cache's debs/ is unpacked into a cache
// that has no src/ yet (a fresh machine), and again into one where an
// earlier fetch left an unfinished tree. The package is built here with
// dpkg-deb, so no network is needed.
func TestFetchDebIntoFreshCache(t *testing.T) {
	if _, err := exec.LookPath("dpkg-deb"); err != nil {
		t.Skip("dpkg-deb not installed (Debian's dpkg)")
	}
	root := t.TempDir()
	pkg := filepath.Join(root, "pkg")
	for name, body := range map[string]string{
		"DEBIAN/control":              "Package: bcx-demo\nVersion: 1.0-1\nArchitecture: all\nMaintainer: t <t@example.org>\nDescription: demo\n",
		"usr/share/bcx/demo/lib.php":  "<?php\nfunction demo() { return 1; }\n",
		"usr/share/bcx/demo/util.php": "<?php\nfunction util() { return 2; }\n",
	} {
		p := filepath.Join(pkg, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	build := func(cache string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Join(cache, "debs"), 0o755); err != nil {
			t.Fatal(err)
		}
		deb := filepath.Join(cache, "debs", "bcx-demo_1.0-1_all.deb")
		if out, err := exec.Command("dpkg-deb", "--root-owner-group", "--build", pkg, deb).CombinedOutput(); err != nil {
			t.Fatalf("dpkg-deb --build: %v\n%s", err, out)
		}
	}
	check := func(dir string) {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(dir, "usr/share/bcx/demo/util.php"))
		if err != nil || string(b) != "<?php\nfunction util() { return 2; }\n" {
			t.Fatalf("unpacked tree: %q, %v", b, err)
		}
		if !done(dir) {
			t.Fatal("unpacked tree not marked done")
		}
	}

	fresh := filepath.Join(root, "cache1")
	build(fresh)
	s := &source{Kind: "deb", Name: "bcx-demo", Version: "1.0-1"}
	dir, err := fetchOne(context.Background(), fresh, s)
	if err != nil {
		t.Fatalf("fetch into a cache without src/: %v", err)
	}
	check(dir)

	partial := filepath.Join(root, "cache2")
	build(partial)
	left := filepath.Join(partial, "src", s.dirName(), "usr")
	if err := os.MkdirAll(left, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(left, "half"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	dir, err = fetchOne(context.Background(), partial, s)
	if err != nil {
		t.Fatalf("fetch over an unfinished tree: %v", err)
	}
	check(dir)
	if _, err := os.Stat(filepath.Join(dir, "usr", "half")); err == nil {
		t.Fatal("the unfinished tree's file is still there")
	}
}
