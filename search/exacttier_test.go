package search

import (
	"testing"

	"github.com/bcindex/bcindex/internal/testkit/gittest"
)

// TestVerbatimFirst: an error message copied from a log ranks the code
// that holds it first, above documentation that talks about it.
func TestVerbatimFirst(t *testing.T) {
	r := gittest.New(t)
	r.Commit("init", map[string]string{
		"docs/errors.md": "# Errors\n\n## Transaction conflicts\n\nA transaction conflict happens when two writers commit at once. Please retry the transaction: conflicts are expected under load.\n",
		"txn.go":         "package db\n\nimport \"errors\"\n\n// ErrConflict is returned when a commit races another.\nvar ErrConflict = errors.New(\"Transaction Conflict. Please retry\")\n\nfunc commit() error { return ErrConflict }\n",
		"other.go":       "package db\n\n// retry runs f again after a transaction conflict.\nfunc retry(f func() error) error { return f() }\n",
	})
	repo := openRepo(t, r.Dir)
	for _, q := range []string{`"Transaction Conflict. Please retry"`, `errors.New("Transaction Conflict`} {
		res := run(t, repo, Options{Query: q})
		if len(res.Hits) == 0 || res.Hits[0].Path != "txn.go" {
			var paths []string
			for _, h := range res.Hits {
				paths = append(paths, h.Path+":"+h.Name)
			}
			t.Fatalf("%s: hits %v, want txn.go first", q, paths)
		}
	}
}
