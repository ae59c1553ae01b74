package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bcindex/bcindex/internal/testkit/gittest"
)

// TestDamagedTableFound: a byte flipped in the middle of a Badger table
// (inside a data block, which no read of a run with nothing new touches)
// is reported in one line on stderr by status and by index, which then
// rebuilds the index from git.
func TestDamagedTableFound(t *testing.T) {
	r := gittest.New(t)
	files := map[string]string{}
	for i := 0; i < 40; i++ {
		files[filepath.Join("pkg", strings.Repeat("x", i%5+1)+string(rune('a'+i%26))+".go")] = sample + strings.Repeat("// padding line for a larger table\n", i)
	}
	r.Commit("init", files)
	if code, _, errOut := runCLI(t, r.Dir, "index"); code != 0 {
		t.Fatalf("index: %d %s", code, errOut)
	}
	tables, _ := filepath.Glob(filepath.Join(r.Dir, ".git", "bcindex", "db", "*.sst"))
	if len(tables) == 0 {
		t.Fatal("no Badger table")
	}
	for _, p := range tables {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		b[len(b)/3] ^= 0xff // a data block: the index and footer are at the end
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	code, out, errOut := runCLI(t, r.Dir, "status")
	if code != 0 || !strings.Contains(out, "state      damaged") || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, "damaged") {
		t.Fatalf("status after the damage: exit %d\nstdout: %s\nstderr: %s", code, out, errOut)
	}
	code, out, errOut = runCLI(t, r.Dir, "index")
	// The damage and the rebuild are a warning: on stderr, never among
	// the results a script reads.
	if code != 0 || !strings.Contains(errOut, "warning: the index database was damaged") || strings.Contains(out, "damaged") {
		t.Fatalf("index after the damage: exit %d\nstdout: %s\nstderr: %s", code, out, errOut)
	}
	code, out, errOut = runCLI(t, r.Dir, "status")
	if code != 0 || !strings.Contains(out, "state      up to date") || errOut != "" {
		t.Fatalf("status after the rebuild: exit %d\nstdout: %s\nstderr: %s", code, out, errOut)
	}
	if code, out, _ := runCLI(t, r.Dir, "search", "--mode", "symbol", "OpenRepository"); code != 0 || !strings.Contains(out, "OpenRepository") {
		t.Fatalf("search after the rebuild: exit %d: %s", code, out)
	}
}

// TestDamagedListingReported: a cached tree listing that fails its
// checksum is reported in one line by whichever command reads it, then
// listed again from git, so the next command reads it sound and says
// nothing.
func TestDamagedListingReported(t *testing.T) {
	for _, cmd := range [][]string{{"search", "--mode", "symbol", "OpenRepository"}, {"status"}, {"index"}} {
		t.Run(cmd[0], func(t *testing.T) {
			r := gittest.New(t)
			r.Commit("init", map[string]string{"store/repo.go": sample})
			if code, _, errOut := runCLI(t, r.Dir, "index"); code != 0 {
				t.Fatalf("index: %d %s", code, errOut)
			}
			tree := strings.TrimSpace(r.Git("rev-parse", "HEAD^{tree}"))
			p := filepath.Join(r.Dir, ".git", "bcindex", "trees", tree[:2], tree[2:])
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			b[len(b)/2] ^= 0xff
			if err := os.WriteFile(p, b, 0o644); err != nil {
				t.Fatal(err)
			}
			code, out, errOut := runCLI(t, r.Dir, cmd...)
			if code != 0 || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, "tree listing "+tree) || !strings.Contains(errOut, "listed the tree again from git") {
				t.Fatalf("%v after the damage: exit %d\nstdout: %s\nstderr: %s", cmd, code, out, errOut)
			}
			if code, out, errOut = runCLI(t, r.Dir, cmd...); code != 0 || errOut != "" {
				t.Fatalf("%v once healed: exit %d\nstdout: %s\nstderr: %s", cmd, code, out, errOut)
			}
		})
	}
}
