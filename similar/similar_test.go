package similar

import (
	"context"
	"strings"
	"testing"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/internal/testkit/gittest"
	"github.com/bcindex/bcindex/search"
	"github.com/bcindex/bcindex/store"
)

// TestSimilarFindsUntouchedCopy: a bug is fixed in one of two copies of the
// same code; similar on the fixing commit names the other copy first, and
// says which changed chunk it resembles.
func TestSimilarFindsUntouchedCopy(t *testing.T) {
	r := gittest.New(t)
	copyGo := strings.ReplaceAll(strings.ReplaceAll(gittest.HeaderGo, "package wire", "package frame"), "ParseHeader", "ReadFrameHeader")
	r.Commit("init", map[string]string{"wire/header.go": gittest.HeaderGo, "frame/frame.go": copyGo,
		"net/retry.go": gittest.RetryGo, "cfg/config.py": gittest.ConfigPy})
	fixed := strings.Replace(gittest.HeaderGo, "if len(buf) < n {", "if len(buf) < 2+n {", 1)
	r.Commit("fix bounds check", map[string]string{"wire/header.go": fixed})
	repo := openRepo(t, r.Dir)

	for _, spec := range []string{"HEAD", "HEAD~1..HEAD"} {
		res, err := similarRepo(context.Background(), repo, spec, search.Options{Embedder: embed.Default(), K: 5})
		if err != nil {
			t.Fatalf("similar %s: %v", spec, err)
		}
		if len(res.Changed) != 1 || res.Changed[0].Name != "ParseHeader" {
			t.Fatalf("similar %s: changed chunks = %+v, want ParseHeader only", spec, res.Changed)
		}
		if len(res.Hits) == 0 {
			t.Fatalf("similar %s: no hits", spec)
		}
		top := res.Hits[0]
		if top.Name != "ReadFrameHeader" || top.Path != "frame/frame.go" || top.Like.Name != "ParseHeader" || top.Like.Path != "wire/header.go" {
			t.Errorf("similar %s: top hit = %s %s like %+v, want frame/frame.go ReadFrameHeader like ParseHeader", spec, top.Path, top.Name, top.Like)
		}
		for _, h := range res.Hits {
			if h.Path == "wire/header.go" && h.Name == "ParseHeader" {
				t.Errorf("similar %s returned the changed chunk itself", spec)
			}
		}
	}
}

// TestChangedTextIsIndexText: a changed class is searched by the text its
// chunk was indexed with (its header and its members' signatures), not by
// all of its source; a changed method by its source.
func TestChangedTextIsIndexText(t *testing.T) {
	src := "class Cart:\n    \"\"\"A cart.\"\"\"\n\n    def add(self, item):\n        self.items.append(item)\n        return len(self.items)\n\n    def total(self):\n        return sum(i.price for i in self.items)\n"
	r := gittest.New(t)
	r.Commit("init", map[string]string{"shop/cart.py": src})
	r.Commit("tax", map[string]string{"shop/cart.py": strings.Replace(src, "def total(self):", "def total(self, tax):", 1)})
	repo := openRepo(t, r.Dir)
	ctx := context.Background()
	emb := embed.Default()
	if _, err := similarRepo(ctx, repo, "HEAD", search.Options{Embedder: emb, K: 5}); err != nil { // indexes both commits
		t.Fatal(err)
	}
	snap, err := store.OpenSnapshot(repo.IndexDir, emb.ID())
	if err != nil {
		t.Fatal(err)
	}
	defer snap.Close()
	listing := func(rev string) *gitindex.Listing {
		c, err := repo.Resolve(rev)
		if err != nil {
			t.Fatal(err)
		}
		l, err := repo.CommitListing(ctx, c)
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
	kinds := map[string]string{}
	for _, q := range changedChunks(snap, listing("HEAD~1"), listing("HEAD")) {
		content, err := repo.ReadBlob(q.blob)
		if err != nil {
			t.Fatal(err)
		}
		kinds[q.Kind] = changedText(snap.Segments[q.seg], q, content)
	}
	class, method := kinds["class"], kinds["method"]
	if !strings.Contains(class, "def total(self, tax)") || strings.Contains(class, "self.items.append(item)") {
		t.Errorf("class searched by %q, want its header and member signatures", class)
	}
	if !strings.Contains(method, "def total(self, tax):") || !strings.Contains(method, "return sum(") {
		t.Errorf("method searched by %q, want its source", method)
	}
}
