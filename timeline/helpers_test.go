package timeline

import (
	"testing"

	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/internal/testkit/indextest"
)

func openRepo(t *testing.T, dir string) *gitindex.Repo { return indextest.Open(t, dir) }
