package gitindex

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/bcindex/bcindex/internal/testkit/gittest"
)

// goGitTree decodes a tree object's content with go-git's Tree.Decode.
func goGitTree(b []byte) ([]object.TreeEntry, error) {
	obj := &plumbing.MemoryObject{}
	obj.SetType(plumbing.TreeObject)
	obj.Write(b)
	var t object.Tree
	err := t.Decode(obj)
	return t.Entries, err
}

// TestParseTreeDecodesAsGoGit decodes tree objects with odd modes, and
// malformed ones, with parseTree and with go-git: the same entries, modes
// made canonical, or an error from both.
func TestParseTreeDecodesAsGoGit(t *testing.T) {
	h := strings.Repeat("\x01", 20)
	entry := func(mode, name string) string { return mode + " " + name + "\x00" + h }
	for _, tc := range []struct {
		tree string
		want filemode.FileMode // 0: an error
	}{
		{entry("100644", "a"), filemode.Regular},
		{entry("100664", "a"), filemode.Regular},
		{entry("100600", "a"), filemode.Regular},
		{entry("100000", "a"), filemode.Regular},
		{entry("100755", "a"), filemode.Executable},
		{entry("100775", "a"), filemode.Executable},
		{entry("100744", "a"), filemode.Executable},
		{entry("100654", "a"), filemode.Executable},
		{entry("100645", "a"), filemode.Executable},
		{entry("40000", "a"), filemode.Dir},
		{entry("040000", "a"), filemode.Dir},
		{entry("40755", "a"), filemode.Dir},
		{entry("120000", "a"), filemode.Symlink},
		{entry("120777", "a"), filemode.Symlink},
		{entry("160000", "a"), filemode.Submodule},
		{entry("160644", "a"), filemode.Submodule},
		{entry("0", "a"), filemode.Submodule},
		{entry("644", "a"), filemode.Submodule},
		{entry("200000", "a"), filemode.Submodule},
		{entry("37777777777", "a"), filemode.Submodule},
		{entry("77777777777", "a"), 0}, // over 32 bits
		{entry("100648", "a"), 0},
		{entry("", "a"), 0},
		{entry("-1", "a"), 0},
		{entry("100644", "a") + "100644", 0},
		{entry("100644", "a") + "100644 b", 0},
		{entry("100644", "a") + "100644 b\x00" + h[:19], 0},
		{entry("100644", ""), 0}, // git refuses it too
		{entry("100644", "a") + entry("100644", ""), 0},
	} {
		t.Run(fmt.Sprintf("%q", strings.ReplaceAll(tc.tree, h, "<hash>")), func(t *testing.T) {
			got, err := parseTree([]byte(tc.tree))
			gg, ggErr := goGitTree([]byte(tc.tree))
			if tc.want == 0 {
				if err == nil || ggErr == nil {
					t.Fatalf("parseTree: %v, %v; go-git: %v, %v; want errors", got, err, gg, ggErr)
				}
				return
			}
			if err != nil || ggErr != nil || !reflect.DeepEqual(got, gg) {
				t.Fatalf("parseTree: %v, %v; go-git: %v, %v", got, err, gg, ggErr)
			}
			if len(got) != 1 || got[0].Mode != tc.want || got[0].Name != "a" || got[0].Hash != plumbing.Hash([]byte(h)) {
				t.Errorf("entries %v, want mode %v", got, tc.want)
			}
		})
	}
	two := entry("100664", "a") + entry("40755", "b")
	got, err := parseTree([]byte(two))
	if gg, ggErr := goGitTree([]byte(two)); err != nil || ggErr != nil || len(got) != 2 || !reflect.DeepEqual(got, gg) {
		t.Errorf("two entries: parseTree: %v, %v; go-git: %v, %v", got, err, gg, ggErr)
	}
}

// TestOddModesDiffAsGoGit writes a tree whose entries have the modes early
// versions of git wrote (100664, 100775, 040755), loose and then packed:
// its entries are go-git's, and it has no changes against the same tree
// written with canonical modes.
func TestOddModesDiffAsGoGit(t *testing.T) {
	r := gittest.New(t)
	r.Commit("one", map[string]string{"a.txt": "a\n", "x.sh": "#!/bin/sh\n", "d/b.txt": "b\n"})
	r.Git("update-index", "--chmod=+x", "x.sh")
	r.Git("commit", "-q", "-m", "executable")
	canon := plumbing.NewHash(r.Git("rev-parse", "HEAD^{tree}"))
	odd := ""
	for _, line := range strings.Split(r.Git("ls-tree", "HEAD"), "\n") {
		meta, name, _ := strings.Cut(line, "\t")
		f := strings.Fields(meta)
		mode := map[string]string{"100644": "100664", "100755": "100775", "040000": "40755"}[f[0]]
		h := plumbing.NewHash(f[2])
		odd += mode + " " + name + "\x00" + string(h[:])
	}
	oddHash := plumbing.NewHash(r.GitInput(odd, "hash-object", "-w", "-t", "tree", "--literally", "--stdin"))
	r.Git("update-ref", "refs/heads/odd", r.GitInput("odd modes\n", "commit-tree", oddHash.String())) // for repack to keep it
	for _, stored := range []string{"loose", "packed"} {
		if stored == "packed" {
			r.Git("repack", "-a", "-d", "-q")
		}
		repo, err := OpenRepo(r.Dir)
		if err != nil {
			t.Fatal(err)
		}
		if got := repo.loose.contains(oddHash); got != (stored == "loose") {
			t.Fatalf("%s: loose %v", stored, got)
		}
		es, err := repo.treeEntries(oddHash)
		gg, ggErr := repo.Git.TreeObject(oddHash)
		if err != nil || ggErr != nil || len(es) != 3 || !reflect.DeepEqual(es, gg.Entries) {
			t.Errorf("%s: entries %v, %v; go-git's %v, %v", stored, es, err, gg, ggErr)
		}
		if changes, err := repo.diffTrees(context.Background(), canon, oddHash); err != nil || len(changes) != 0 {
			t.Errorf("%s: %d changes against the canonical tree (%+v), %v", stored, len(changes), changes, err)
		}
		repo.Close()
	}
}
