package grep

import (
	"testing"

	"github.com/bcindex/bcindex/gitindex"
)

func openRepo(t *testing.T, dir string) *gitindex.Repo {
	t.Helper()
	repo, err := gitindex.OpenRepo(dir)
	if err != nil {
		t.Fatal(err)
	}
	return repo
}
