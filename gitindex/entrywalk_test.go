package gitindex

import (
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
)

func TestEntryWalkShared(t *testing.T) {
	h := func(s string) plumbing.Hash { return plumbing.ComputeHash(plumbing.BlobObject, []byte(s)) }
	other := []Entry{
		{Path: "a.go", Blob: h("a")},
		{Path: "b.go", Blob: h("b")},
		{Path: "c/d.go", Blob: h("d")},
		{Path: "gone.go", Blob: h("g")},
		{Path: "vendor/x.go", Blob: h("x"), Skip: SkipVendored},
	}
	cur := []Entry{
		{Path: "a.go", Blob: h("a")},        // same
		{Path: "aa.go", Blob: h("aa")},      // added
		{Path: "b.go", Blob: h("b2")},       // changed blob
		{Path: "c/d.go", Blob: h("d")},      // same
		{Path: "vendor/x.go", Blob: h("x")}, // same blob, other skip reason
		{Path: "z.go", Blob: h("a")},        // added, blob held elsewhere
	}
	want := []int{0, -1, -1, 2, -1, -1}
	w := NewEntryWalk(other)
	for i, e := range cur {
		k, ok := w.Shared(e)
		if ok != (want[i] >= 0) || k != want[i] {
			t.Errorf("%s: Shared = %d, %v; want %d", e.Path, k, ok, want[i])
		}
	}
	none := NewEntryWalk(nil)
	if _, ok := none.Shared(cur[0]); ok {
		t.Error("a walk against no listing found a shared entry")
	}
}
