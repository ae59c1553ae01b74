package share

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/gitindex"
)

// TestShareRefName: push names the share refs/bcindex/<model>-<hash>, with
// no file extension; a share a remote holds under the name with ".loc"
// that some versions pushed is still fetched, and the next push folds it
// into the share under the right name.
func TestShareRefName(t *testing.T) {
	ctx := context.Background()
	r, bare := pushedRepo(t, map[string]string{"calc/calc.go": goFile})
	emb := embed.Default()
	model := emb.ID()
	indexRevs(t, r.Dir, emb, "HEAD")
	repo, err := gitindex.OpenRepo(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	defer repo.Close()
	if _, err := Push(ctx, repo, "origin", model); err != nil {
		t.Fatal(err)
	}
	refs := forEachRef(t, bare)
	want := "refs/bcindex/" + model + "-"
	if len(refs) != 1 || !strings.HasPrefix(refs[0], want) || strings.Contains(strings.TrimPrefix(refs[0], want), ".") {
		t.Fatalf("share refs on the remote: %v, want one %s<hash>", refs, want)
	}

	// The remote holds the share only under the old name.
	legacy := refs[0] + ".loc"
	gitRun(t, bare, "update-ref", legacy, refs[0])
	gitRun(t, bare, "update-ref", "-d", refs[0])
	clone := filepath.Join(t.TempDir(), "clone")
	gitRun(t, r.Dir, "clone", "-q", bare, clone)
	crepo, err := gitindex.OpenRepo(clone)
	if err != nil {
		t.Fatal(err)
	}
	defer crepo.Close()
	got, err := Fetch(ctx, crepo, "origin", model, emb.Dim(), 0)
	if err != nil || got.Imported != 1 {
		t.Fatalf("fetch of a share under %s: %+v, %v", legacy, got, err)
	}

	// The next push writes the right name, its commit descending from the
	// old one's.
	r.Commit("more", map[string]string{"calc/more.go": "package calc\n\n// Sub subtracts.\nfunc Sub(a, b int) int { return a - b }\n"})
	gitRun(t, r.Dir, "push", "-q", "origin", "main")
	indexRevs(t, r.Dir, emb, "HEAD")
	sum, err := Push(ctx, repo, "origin", model)
	if err != nil || sum.Entries != 2 {
		t.Fatalf("push: %+v, %v", sum, err)
	}
	if err := exec.Command("git", "-C", bare, "merge-base", "--is-ancestor", legacy, refs[0]).Run(); err != nil {
		t.Errorf("%s does not descend from %s: %v", refs[0], legacy, err)
	}
}

func forEachRef(t *testing.T, dir string) []string {
	t.Helper()
	out, err := exec.Command("git", "-C", dir, "for-each-ref", "--format=%(refname)", "refs/bcindex").Output()
	if err != nil {
		t.Fatal(err)
	}
	return strings.Fields(string(out))
}
