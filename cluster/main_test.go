package cluster

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"testing"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/indexer"
)

// helperEnv makes the test binary act as a publisher process, so tests can
// SIGKILL a publish at any point.
const helperEnv = "BCINDEX_CLUSTER_TEST_PUBLISH"

type helperArgs struct {
	Dir, URL, Repo, Ref, Rev string
}

func TestMain(m *testing.M) {
	if arg := os.Getenv(helperEnv); arg != "" {
		os.Exit(helperPublish(arg))
	}
	os.Exit(m.Run())
}

func helperPublish(arg string) int {
	var a helperArgs
	if err := json.Unmarshal([]byte(arg), &a); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	ctx := context.Background()
	repo, err := gitindex.OpenRepo(a.Dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	defer repo.Close()
	src := NewLocal(repo, embed.Default(), indexer.Options{Workers: 1})
	defer src.Close()
	c, err := Open(ctx, a.URL)
	if err == nil {
		_, err = Publish(ctx, c, src, PublishOptions{Repo: a.Repo, Refs: []string{a.Ref}, Revs: []string{a.Rev}, Batch: 20})
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}
