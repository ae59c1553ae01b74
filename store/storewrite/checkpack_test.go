package storewrite

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/internal/testkit/gittest"
)

// TestCheckListingPack: the check reads every record of a pack of
// listings a history run wrote; a byte flipped in one is reported as a
// damaged tree listing naming the pack, and the repair deletes the pack,
// whose listings are then no longer cached (the next run lists them from
// git).
func TestCheckListingPack(t *testing.T) {
	r := gittest.New(t)
	for i := range 6 {
		r.Commit("c", map[string]string{fmt.Sprintf("f%d.go", i): "package f\n", "hot.go": fmt.Sprintf("package hot // %d\n", i)})
	}
	repo, err := gitindex.OpenRepo(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	defer repo.Close()
	ctx := context.Background()
	commits, err := repo.History(ctx, gitindex.HistoryOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := repo.ListHistory(ctx, commits, func(*gitindex.Listing, *gitindex.TreeDiff) error { return nil }); err != nil {
		t.Fatal(err)
	}
	dir := repo.IndexDir
	packs, _ := filepath.Glob(filepath.Join(dir, "trees", "pack", "pack-*.pack"))
	if len(packs) != 1 {
		t.Fatalf("%d packs after a history run, want 1", len(packs))
	}
	rep, err := Check(ctx, dir, repo.CheckListing)
	if err != nil || len(rep.Damaged) != 0 || rep.Files != 1 {
		t.Fatalf("sound pack: %+v %v", rep, err)
	}
	b, err := os.ReadFile(packs[0])
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)/3] ^= 0x08
	if err := os.WriteFile(packs[0], b, 0o644); err != nil {
		t.Fatal(err)
	}
	rep, err = Check(ctx, dir, repo.CheckListing)
	if err != nil || len(rep.Damaged) != 1 || rep.Damaged[0].Part != "tree listing" || !strings.HasPrefix(rep.Damaged[0].Name, "pack/pack-") {
		t.Fatalf("damaged pack: %+v %v", rep, err)
	}
	if err := Repair(ctx, dir, rep, 0); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(packs[0]); !os.IsNotExist(err) {
		t.Errorf("the damaged pack survived the repair: %v", err)
	}
	if gitindex.ListingCached(dir, commits[0].Tree) {
		t.Error("a listing of the deleted pack is still cached")
	}
	if rep, err = Check(ctx, dir, repo.CheckListing); err != nil || len(rep.Damaged) != 0 {
		t.Errorf("after the repair: %+v %v", rep, err)
	}
}
