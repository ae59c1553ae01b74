package cluster

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/internal/testkit/weaviatetest"
	userq "github.com/bcindex/bcindex/query"
)

// TestThreeNodes runs a 3-node cluster (collections sharded over the three
// and replicated three times): one node is SIGKILLed while publishes and
// searches run, then publish itself is SIGKILLed at random points.
func TestThreeNodes(t *testing.T) {
	t.Parallel() // each starts its own servers; together they fit the package timeout
	if testing.Short() {
		t.Skip("starts a 3-node cluster")
	}
	srv := weaviatetest.Start(t, 3)
	ctx := context.Background()
	// Publishes write over gRPC, as a large publish should (the killed
	// publisher below uses REST).
	c, err := OpenWith(ctx, srv.URL(), Options{GRPC: srv.Nodes[0].GRPC})
	if err != nil {
		t.Fatal(err)
	}
	a := newRepo(t, 24)
	chunks := publish(t, c, a.Dir, "acme/app")[0].ChunksNew // chunk objects the cluster holds
	cls, err := c.w.Schema().ClassGetter().WithClassName(ChunkClass).Do(ctx)
	if err != nil {
		t.Fatal(err)
	}
	sharding, _ := cls.ShardingConfig.(map[string]any)
	if cls.ReplicationConfig.Factor != 3 || fmt.Sprint(sharding["desiredCount"]) != "3" {
		t.Fatalf("replication %d, sharding %v: want 3 replicas over 3 shards", cls.ReplicationConfig.Factor, sharding["desiredCount"])
	}

	t.Run("NodeKilled", func(t *testing.T) {
		var searches, failures atomic.Int64
		var firstErr atomic.Value
		stop := untilStopped(func() {
			hits, err := Search(ctx, c, SearchOptions{Query: "merge the ledger", Embedder: embed.Default(), K: 5})
			searches.Add(1)
			if err != nil || len(hits) == 0 {
				failures.Add(1)
				firstErr.CompareAndSwap(nil, fmt.Sprint(err, len(hits)))
			}
		})
		victim := srv.Nodes[2]
		for round := 1; round <= 3; round++ {
			a.Commit(fmt.Sprintf("round %d", round), map[string]string{fmt.Sprintf("pkg1/f%d.go", round): goFile(round, 10+round)})
			if round == 1 {
				go func() { time.Sleep(300 * time.Millisecond); victim.Kill() }()
			}
			s := publish(t, c, a.Dir, "acme/app")[0]
			if s.FilesAdded != 1 {
				t.Fatalf("round %d: %+v", round, s)
			}
			chunks += s.ChunksNew
		}
		stop()
		if failures.Load() > 0 || searches.Load() == 0 {
			t.Fatalf("%d of %d searches failed while a node was down: %v", failures.Load(), searches.Load(), firstErr.Load())
		}
		if err := victim.Start(); err != nil {
			t.Fatal(err)
		}
		if err := victim.WaitReady(3 * time.Minute); err != nil {
			t.Fatal(err)
		}
		// The node rejoins and async replication brings it what it missed.
		// Then through every node the ref shows exactly the commit's files,
		// the chunk objects number what the publishes sent, and a search
		// answers. (File objects are not counted: a replica may keep, or
		// pass back, a file object deleted while it was down; the next
		// publish deletes it again. Chunk objects are never deleted.)
		if s := publish(t, c, a.Dir, "acme/app")[0]; !s.Unchanged {
			t.Fatalf("publish after the restart: %+v", s)
		}
		q := SearchOptions{Query: "merge the ledger", Embedder: embed.Default(), K: 5}
		want, err := Search(ctx, c, q)
		if err != nil || len(want) == 0 {
			t.Fatal(want, err)
		}
		src := localSource(t, a.Dir)
		head, err := src.Prepare(ctx, "main")
		if err != nil {
			t.Fatal(err)
		}
		commitFiles, err := src.Files(ctx, head)
		if err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(4 * time.Minute)
		for _, nd := range srv.Nodes {
			for {
				var got []Hit
				visible := "not read"
				nc, err := Open(ctx, nd.URL) // a restarted node may report not ready for a while
				if err == nil {
					got, err = Search(ctx, nc, q)
				}
				if err == nil {
					visible, err = visibleFiles(ctx, nc, "acme/app", "main", commitFiles)
				}
				var n int64
				if err == nil {
					n, err = nc.Count(ctx, ChunkClass)
				}
				if err == nil && n != int64(chunks) {
					visible += fmt.Sprintf("; %d chunk objects, the publishes sent %d", n, chunks)
				}
				if err == nil && visible == "" && len(got) > 0 {
					if got[0].ChunkID != want[0].ChunkID || got[0].Commit != want[0].Commit {
						// Seen on a rejoined node for minutes: it holds the file
						// objects but its filter on chunk IDs misses some.
						t.Logf("%s ranks differently: %s; node1 %s", nd.Name, topHit(got), topHit(want))
					}
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("%s: files %s; answers %s (%v); node1 %s\n%s\n%s", nd.Name, visible, topHit(got), err, topHit(want),
						describeNode(ctx, srv.Nodes[0].URL, q), describeNode(ctx, nd.URL, q))
				}
				time.Sleep(time.Second)
			}
			t.Logf("%s: %s", nd.Name, describeNode(ctx, nd.URL, q))
		}
		t.Logf("%d searches while node3 was killed and restarted, none failed", searches.Load())
	})

	t.Run("PublishKilled", func(t *testing.T) {
		testPublishKilled(t, c, srv.URL())
	})
}

// testPublishKilled SIGKILLs publish processes at random points, switching
// a ref between two commits, while a reader checks that every hit belongs
// to the commit its ref names; a final run converges to exactly the
// objects of that commit.
func testPublishKilled(t *testing.T, c *Client, url string) {
	ctx := context.Background()
	r := newRepo(t, 16)
	r.Git("branch", "one")
	r.Commit("many changes", map[string]string{"pkg0/f0.go": goFile(0, 20), "pkg1/f1.go": goFile(1, 20), "pkg2/f2.go": goFile(2, 20),
		"pkg3/f3.go": goFile(3, 20), "new/extra.go": goFile(99, 20)})
	r.Remove("pkg4/f4.go")
	r.Git("commit", "-qam", "remove one")
	r.Git("branch", "two")
	src := localSource(t, r.Dir)
	files := map[string]map[string]bool{} // commit → "path blob"
	for _, rev := range []string{"one", "two"} {
		commit, err := src.Prepare(ctx, rev)
		if err != nil {
			t.Fatal(err)
		}
		fs, _ := src.Files(ctx, commit)
		files[commit] = map[string]bool{}
		for _, f := range fs {
			files[commit][f.Path+" "+f.Blob] = true
		}
	}

	var bad atomic.Value
	var reads atomic.Int64
	stop := untilStopped(func() {
		hits, err := Search(ctx, c, SearchOptions{Query: "parse the config", Repo: "kill/me", Embedder: embed.Default(), K: 30})
		if err != nil {
			return // not published yet
		}
		reads.Add(1)
		for _, h := range hits {
			if !files[h.Commit][h.Path+" "+h.Blob] {
				bad.CompareAndSwap(nil, fmt.Sprintf("hit %s %s is not in commit %s", h.Path, h.Blob, h.Commit))
			}
		}
	})
	run := func(rev string, killAfter time.Duration) (killed bool, took time.Duration) {
		arg, _ := json.Marshal(helperArgs{Dir: r.Dir, URL: url, Repo: "kill/me", Ref: "main", Rev: rev})
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), helperEnv+"="+string(arg))
		out := &syncBuffer{}
		cmd.Stdout, cmd.Stderr = out, out
		start := time.Now()
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		if killAfter > 0 {
			select {
			case err := <-done:
				if err != nil {
					t.Fatalf("publish of %s: %v\n%s", rev, err, out.String())
				}
				return false, time.Since(start)
			case <-time.After(killAfter):
				cmd.Process.Signal(syscall.SIGKILL)
				<-done
				return true, time.Since(start)
			}
		}
		if err := <-done; err != nil {
			t.Fatalf("publish of %s: %v\n%s", rev, err, out.String())
		}
		return false, time.Since(start)
	}
	_, full := run("one", 0)
	rng := rand.New(rand.NewPCG(1, 2))
	kills := 0
	for i := 0; i < 20; i++ {
		rev := []string{"two", "one"}[i%2]
		if k, _ := run(rev, time.Duration(rng.Int64N(int64(full)))+time.Millisecond); k {
			kills++
		}
	}
	run("two", 0)
	stop()
	if b := bad.Load(); b != nil {
		t.Fatal(b)
	}
	// Converged: exactly the files of two, all visible, nothing left over.
	state, err := c.readRef(ctx, "kill/me", "main")
	if err != nil {
		t.Fatal(err)
	}
	have, err := c.refFiles(ctx, "kill/me", "main", nil)
	if err != nil {
		t.Fatal(err)
	}
	want := files[state.Commit]
	if len(have) != len(want) || len(want) == 0 {
		t.Fatalf("%d file objects after the final run, want %d", len(have), len(want))
	}
	for _, h := range have {
		if !want[h.path+" "+h.blob] || h.from > state.Gen || h.until != live || h.id != fileID("kill/me", "main", src.Model(), h.path, h.blob) {
			t.Fatalf("file object %+v after the final run (generation %d)", h, state.Gen)
		}
	}
	t.Logf("%d of 20 publishes killed (a full one takes %s); %d searches saw no mixed ref", kills, full.Round(time.Millisecond), reads.Load())
	if kills < 10 {
		t.Errorf("only %d kills landed", kills)
	}
}

// visibleFiles compares the file objects of a ref visible at its
// generation, read through c, with a commit's files: "" when they are the
// same, else what differs.
func visibleFiles(ctx context.Context, c *Client, repo, ref string, files []File) (string, error) {
	state, err := c.readRef(ctx, repo, ref)
	if err != nil {
		return "", err
	}
	have, err := c.refFiles(ctx, repo, ref, nil)
	if err != nil {
		return "", err
	}
	want := map[string]bool{}
	for _, f := range files {
		want[f.Path+" "+f.Blob] = true
	}
	// Of two visible objects of one path the newer is the commit's (see
	// newestFiles).
	newest := map[string]haveFile{}
	for _, h := range have {
		if h.from <= state.Gen && state.Gen < h.until && h.from >= newest[h.path].from {
			newest[h.path] = h
		}
	}
	n := 0
	for _, h := range newest {
		if !want[h.path+" "+h.blob] {
			return fmt.Sprintf("%s %s visible at generation %d, not in the commit", h.path, h.blob, state.Gen), nil
		}
		n++
	}
	if n != len(want) {
		return fmt.Sprintf("%d of the commit's %d files visible", n, len(want)), nil
	}
	return "", nil
}

// topHit describes the first of hits for a failure message.
func topHit(hits []Hit) string {
	if len(hits) == 0 {
		return "no hits"
	}
	h := hits[0]
	return fmt.Sprintf("%d hits, first %s %s@%s:%s chunk %s commit %.12s score %.4f", len(hits), h.Name, h.Repo, h.Ref, h.Path, h.ChunkID, h.Commit, h.Score)
}

// untilStopped calls f over and over in the background until the returned
// stop is called, which waits for the call in progress to end.
func untilStopped(f func()) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-done:
				return
			default:
			}
			f()
		}
	}()
	return func() { close(done); wg.Wait() }
}

// describeNode says what one node holds and ranks, for a failure message.
func describeNode(ctx context.Context, url string, q SearchOptions) string {
	c, err := Open(ctx, url)
	if err != nil {
		return err.Error()
	}
	chunks, _ := c.Count(ctx, ChunkClass)
	files, _ := c.Count(ctx, FileClass)
	vs, _ := q.Embedder.Embed(ctx, []string{q.Query}, embed.RoleQuery)
	pq, _ := userq.Parse(q.Query) // as Search parses it before ranking
	q.Parsed = &pq
	rs, lists, _, err := c.candidates(ctx, q, q.Embedder.ID(), vs[0], 8)
	var names []string
	for _, l := range lists {
		for i, k := range l.Keys {
			names = append(names, fmt.Sprintf("%s %s %.3f", l.Mode, str(rs[k].props, "name"), l.Scores[i]))
		}
	}
	return fmt.Sprintf("%s: %d chunk objects, %d file objects; ranks %v %v", url, chunks, files, names, err)
}

type syncBuffer struct {
	mu  sync.Mutex
	buf []byte
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf = append(b.buf, p...)
	return len(p), nil
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return string(b.buf)
}
