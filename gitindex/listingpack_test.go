package gitindex

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/bcindex/bcindex/internal/checksum"
	"github.com/bcindex/bcindex/internal/testkit/gittest"
)

// packHistory builds a history of 31 commits that adds, edits (one file
// in most), deletes, renames and adds back files, changes many files at
// once, changes a .gitattributes file, goes back to an earlier tree, and
// changes a mode only; it returns the repository opened and the history, oldest first.
func packHistory(t *testing.T) (*gittest.Repo, *Repo, []HistoryCommit) {
	t.Helper()
	r := gittest.New(t)
	files := map[string]string{}
	for i := range 40 {
		files[fmt.Sprintf("pkg%d/f%d.go", i%5, i)] = fmt.Sprintf("package pkg%d\n\nfunc F%d() {}\n", i%5, i)
	}
	r.Commit("init", files)
	for i := range 30 {
		switch {
		case i == 7:
			r.Remove("pkg1/f1.go", "pkg2/f2.go")
			r.Commit("delete", nil)
		case i == 9:
			r.Remove("pkg3/f3.go")
			r.Commit("rename", map[string]string{"moved/f3.go": files["pkg3/f3.go"]})
		case i == 12:
			many := map[string]string{}
			for j := range 30 {
				many[fmt.Sprintf("pkg%d/f%d.go", j%5, j+5)] = fmt.Sprintf("package pkg%d\n\n// rewritten %d\n", j%5, j)
			}
			r.Commit("many", many)
		case i == 15:
			r.Commit("attributes", map[string]string{".gitattributes": "pkg4/** linguist-generated\n"})
		case i == 18:
			r.Git("revert", "--no-edit", "HEAD")
		case i == 21:
			r.Git("update-index", "--chmod=+x", "pkg0/f0.go")
			r.Git("commit", "-q", "-m", "mode")
		case i == 24:
			r.Commit("add back", map[string]string{"pkg1/f1.go": "package pkg1\n\n// back\n"})
		default:
			r.Commit("edit", map[string]string{fmt.Sprintf("pkg%d/f%d.go", i%5, 20+i%7): fmt.Sprintf("package pkg%d\n\n// edit %d\n", i%5, i), fmt.Sprintf("new/n%d.go", i): "package n\n", "hot.go": fmt.Sprintf("package hot // %d\n", i)})
		}
	}
	repo, err := OpenRepo(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { repo.Close() })
	commits, err := repo.History(context.Background(), HistoryOptions{})
	if err != nil || len(commits) != 31 {
		t.Fatalf("history: %d commits, %v", len(commits), err)
	}
	return r, repo, commits
}

// listHistory lists commits in runs of batch, checking each listing
// against a walk; it returns the diffs.
func listHistory(t *testing.T, repo *Repo, commits []HistoryCommit, batch int) []*TreeDiff {
	t.Helper()
	var diffs []*TreeDiff
	for lo := 0; lo < len(commits); lo += batch {
		run := commits[lo:min(lo+batch, len(commits))]
		i := 0
		err := repo.ListHistory(context.Background(), run, func(l *Listing, d *TreeDiff) error {
			want, err := repo.WalkTree(run[i].Tree)
			if err != nil {
				return err
			}
			if l.Tree != run[i].Tree || !reflect.DeepEqual(l.Entries, want.Entries) {
				t.Errorf("commit %d: listing differs from a walk", lo+i)
			}
			i++
			diffs = append(diffs, d)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return diffs
}

// packRecords decodes every record of every pack in indexDir, by tree.
func packRecords(t *testing.T, indexDir string) (map[plumbing.Hash]*packRecord, []string) {
	t.Helper()
	recs := map[plumbing.Hash]*packRecord{}
	names, _ := filepath.Glob(filepath.Join(packDir(indexDir), "pack-*.pack"))
	for _, name := range names {
		p, err := openTreePack(name)
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for i := range p.count() {
			off, n := p.entry(i)
			rec, err := decodeRecord(p.tree(i), b[off:off+int64(n)])
			if err != nil {
				t.Fatal(err)
			}
			recs[rec.tree] = rec
		}
	}
	return recs, names
}

// looseListings counts the listing files in indexDir.
func looseListings(indexDir string) int {
	n := 0
	filepath.WalkDir(filepath.Join(indexDir, "trees"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && len(filepath.Base(filepath.Dir(p))) == 2 {
			n++
		}
		return nil
	})
	return n
}

// TestListHistoryPacks: a history listed in runs leaves one pack per run
// and no listing file; each listing is a delta against its parent's
// until the chain is maxChain long or the change is large, and every
// listing reads back as a walk lists it, across packs. Listing the
// history again reads every listing and writes nothing; listing it into
// an empty cache writes the same packs.
func TestListHistoryPacks(t *testing.T) {
	defer func(n int) { maxChain = n }(maxChain)
	maxChain = 4
	_, repo, commits := packHistory(t)
	listHistory(t, repo, commits, 12)
	recs, names := packRecords(t, repo.IndexDir)
	if len(names) != 3 || looseListings(repo.IndexDir) != 0 {
		t.Fatalf("%d packs and %d listing files after 3 runs, want 3 and none", len(names), looseListings(repo.IndexDir))
	}
	chain := map[plumbing.Hash]int{}
	fulls := 0
	for i, c := range commits {
		rec := recs[c.Tree]
		if rec == nil {
			t.Fatalf("commit %d: no record", i)
		}
		if _, seen := chain[c.Tree]; seen {
			continue // the revert goes back to a tree listed before
		}
		var big bool
		if i > 0 {
			parent, _ := repo.WalkTree(c.Parent)
			l, _ := repo.WalkTree(c.Tree)
			gone, changed := listingDelta(parent.Entries, l.Entries)
			big = (len(gone)+len(changed))*maxDeltaShare > len(parent.Entries)
		}
		switch {
		case rec.full:
			fulls++
			chain[c.Tree] = 1
			if i > 0 && chain[c.Parent] < maxChain && !big {
				t.Errorf("commit %d stored in full after a chain of %d", i, chain[c.Parent])
			}
		case big:
			t.Errorf("commit %d: a large change stored as a delta", i)
		case rec.base != c.Parent:
			t.Errorf("commit %d: a delta against %s, not its parent's tree", i, rec.base)
		default:
			chain[c.Tree] = chain[c.Parent] + 1
		}
		if chain[c.Tree] > maxChain {
			t.Errorf("commit %d: chain of %d", i, chain[c.Tree])
		}
		l, err := readListing(repo.IndexDir, c.Tree)
		want, _ := repo.WalkTree(c.Tree)
		if err != nil || !reflect.DeepEqual(l.Entries, want.Entries) {
			t.Fatalf("commit %d: read back %v", i, err)
		}
	}
	if fulls < len(commits)/maxChain || fulls > len(commits)/2 {
		t.Errorf("%d listings in full of %d", fulls, len(commits))
	}

	diffs := listHistory(t, repo, commits, 31)
	for i, d := range diffs {
		if !d.Cached {
			t.Errorf("commit %d listed again: %+v", i, d)
		}
	}
	if _, again := packRecords(t, repo.IndexDir); !reflect.DeepEqual(again, names) {
		t.Errorf("packs after a second listing %v, want %v", again, names)
	}
	if err := os.RemoveAll(filepath.Join(repo.IndexDir, "trees")); err != nil {
		t.Fatal(err)
	}
	listHistory(t, repo, commits, 12)
	if _, fresh := packRecords(t, repo.IndexDir); !reflect.DeepEqual(fresh, names) {
		t.Errorf("packs listed again into an empty cache %v, want %v", fresh, names)
	}
}

// TestListingPackDamage: a byte flipped in a packed record is detected by
// the read of its listing and of every listing read through it, none of
// them is served, and each is listed again from git; the check of the
// pack says so. A damaged index leaves the pack out.
func TestListingPackDamage(t *testing.T) {
	defer func(n int) { maxChain = n }(maxChain)
	maxChain = 8
	_, repo, commits := packHistory(t)
	listHistory(t, repo, commits[:8], 8)
	_, names := packRecords(t, repo.IndexDir)
	p, err := openTreePack(names[0])
	if err != nil {
		t.Fatal(err)
	}
	victim := commits[3].Tree
	off, n, _ := p.find(victim)
	b, err := os.ReadFile(names[0])
	if err != nil {
		t.Fatal(err)
	}
	b[off+int64(n)/2] ^= 0x20
	if err := os.WriteFile(names[0], b, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := CheckListingPack(names[0]); err == nil {
		t.Error("the check of the pack found no damage")
	}
	var damaged []string
	repo.Damaged = func(s string) { damaged = append(damaged, s) }
	for i, c := range commits[:8] {
		_, err := readListing(repo.IndexDir, c.Tree)
		if bad := i >= 3; (err != nil) != bad || bad && errors.Is(err, fs.ErrNotExist) {
			t.Errorf("commit %d: read %v", i, err)
		}
	}
	l, err := repo.Listing(commits[5].Tree)
	want, _ := repo.WalkTree(commits[5].Tree)
	if err != nil || !reflect.DeepEqual(l.Entries, want.Entries) || len(damaged) != 1 {
		t.Fatalf("listing over the damage: %v, reported %q", err, damaged)
	}
	// Listed again in a run: the listings over the damage read sound, and
	// the damage is not reported again.
	damaged = nil
	listHistory(t, repo, commits[:8], 8)
	if len(damaged) != 1 {
		t.Errorf("listing the history again reported %q, want the damaged listing once", damaged)
	}
	damaged = nil
	for i, c := range commits[:8] {
		l, err := readListing(repo.IndexDir, c.Tree)
		want, _ := repo.WalkTree(c.Tree)
		if err != nil || !reflect.DeepEqual(l.Entries, want.Entries) {
			t.Errorf("commit %d after listing again: %v", i, err)
		}
	}

	// The index damaged: no record of the pack is served.
	b[len(b)-packTrailerLen-3] ^= 0x01
	if err := os.WriteFile(names[0], b, 0o644); err != nil {
		t.Fatal(err)
	}
	treePackSets.Delete(repo.IndexDir)
	if _, err := CheckListingPack(names[0]); err == nil {
		t.Error("the check of a pack with a damaged index found no damage")
	}
	if ListingCached(repo.IndexDir, commits[1].Tree) {
		t.Error("a pack with a damaged index still serves its listings")
	}
}

// TestListingPackCycle: records whose bases lead back to themselves, each
// sound, are a damaged cache: the read fails instead of following them.
func TestListingPackCycle(t *testing.T) {
	dir := t.TempDir()
	a, b := plumbing.NewHash("aa"), plumbing.NewHash("bb")
	w := newPackWriter(dir)
	for _, pair := range [][2]plumbing.Hash{{a, b}, {b, a}} {
		rec := append(append(append([]byte{}, pair[0][:]...), recordDelta), pair[1][:]...)
		rec = appendPaths(rec, nil)
		rec = appendEntries(rec, []Entry{{Path: "x.go", Blob: pair[1]}})
		rec = binary.LittleEndian.AppendUint32(rec, checksum.Sum(rec))
		if err := w.addRecord(pair[0], rec); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.finish(); err != nil {
		t.Fatal(err)
	}
	if !ListingCached(dir, a) {
		t.Fatal("the records are not found")
	}
	if l, err := readListing(dir, a); err == nil || errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("a cycle read as %v, %v", l, err)
	} else if len(err.Error()) > 200 {
		t.Errorf("a cycle read with an error of %d bytes: %.200s", len(err.Error()), err)
	}
}
