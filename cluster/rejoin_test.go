package cluster

import (
	"context"
	"testing"
	"time"

	"github.com/bcindex/bcindex/internal/testkit/weaviatetest"
)

// TestPublishThroughRejoinedNode: a node that was down while a publish
// switched a ref holds the old ref until replication brings it the new
// one (here never: async replication is off). A publish of the same
// commit through that node must still find the ref published (so it sends
// nothing again), since the ref is read at quorum as it is written.
func TestPublishThroughRejoinedNode(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts a 3-node cluster")
	}
	srv := weaviatetest.Start(t, 3, "ASYNC_REPLICATION_DISABLED=true")
	ctx := context.Background()
	c, err := Open(ctx, srv.URL())
	if err != nil {
		t.Fatal(err)
	}
	a := newRepo(t, 8)
	publish(t, c, a.Dir, "acme/rejoin")
	victim := srv.Nodes[2]
	victim.Kill()
	a.Commit("while node3 is down", map[string]string{"pkg1/new.go": goFile(1, 3)})
	if s := publish(t, c, a.Dir, "acme/rejoin")[0]; s.FilesAdded != 1 || s.Unchanged {
		t.Fatalf("publish while node3 is down: %+v", s)
	}
	if err := victim.Start(); err != nil {
		t.Fatal(err)
	}
	if err := victim.WaitReady(3 * time.Minute); err != nil {
		t.Fatal(err)
	}
	nc, err := Open(ctx, victim.URL)
	if err != nil {
		t.Fatal(err)
	}
	want, err := c.readRef(ctx, "acme/rejoin", "main")
	if err != nil {
		t.Fatal(err)
	}
	got, err := nc.readRef(ctx, "acme/rejoin", "main")
	if err != nil {
		t.Fatal(err)
	}
	if got != want || want.Gen != 2 {
		t.Fatalf("ref read through the rejoined node: %+v; through node1: %+v (want generation 2)", got, want)
	}
	if s := publish(t, nc, a.Dir, "acme/rejoin")[0]; !s.Unchanged || s.FilesAdded != 0 || s.Generation != 2 {
		t.Fatalf("publish through the rejoined node: %+v", s)
	}
}
