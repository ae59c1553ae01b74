package cluster

import (
	"context"
	"fmt"
	"net"
	"strings"
	"testing"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/indexer"
	"github.com/bcindex/bcindex/internal/testkit/gittest"
)

// topics give each generated function words of its own, so a query can
// name one.
var topics = []string{"parse", "retry", "cache", "hash", "stream", "token", "queue", "merge", "render", "encode",
	"decode", "route", "lock", "flush", "index", "scan", "match", "split", "join", "sort"}
var objects = []string{"config", "request", "buffer", "ledger", "socket", "schema", "widget", "matrix", "packet", "journal"}

// goFile is a Go file of five documented functions, different for every
// (i, variant).
func goFile(i, variant int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "package p%d\n\n", i)
	for f := 0; f < 5; f++ {
		t, o := topics[(i+f)%len(topics)], objects[(i*5+f)%len(objects)]
		name := fmt.Sprintf("%s%s%dv%d", strings.ToUpper(t[:1])+t[1:], strings.ToUpper(o[:1])+o[1:], i*5+f, variant)
		fmt.Fprintf(&b, "// %s will %s the %s number %d.\nfunc %s(n int) int {\n\tx := n * %d\n\tfor k := 0; k < %d; k++ {\n\t\tx += k ^ %d\n\t}\n\treturn x\n}\n\n",
			name, t, o, i*5+f, name, i+f+variant, f+3, variant)
	}
	return b.String()
}

// newRepo commits n generated Go files to a new repository.
func newRepo(t testing.TB, n int) *gittest.Repo {
	r := gittest.New(t)
	files := map[string]string{}
	for i := 0; i < n; i++ {
		files[fmt.Sprintf("pkg%d/f%d.go", i%7, i)] = goFile(i, 0)
	}
	r.Commit("generated", files)
	return r
}

func localSource(t testing.TB, dir string) *Local {
	t.Helper()
	repo, err := gitindex.OpenRepo(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { repo.Close() })
	src := NewLocal(repo, embed.Default(), indexer.Options{Workers: 1})
	t.Cleanup(src.Close)
	return src
}

func publish(t *testing.T, c *Client, dir, name string, refs ...string) []RefSummary {
	t.Helper()
	if len(refs) == 0 {
		refs = []string{"main"}
	}
	sums, err := Publish(context.Background(), c, localSource(t, dir), PublishOptions{Repo: name, Refs: refs})
	if err != nil {
		t.Fatal(err)
	}
	return sums
}

func count(t *testing.T, c *Client, class string) int64 {
	t.Helper()
	n, err := c.Count(context.Background(), class)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func open(t *testing.T, url string) *Client {
	t.Helper()
	c, err := Open(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// closedPort is a loopback port nothing listens on.
func closedPort(t *testing.T) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := l.Addr().(*net.TCPAddr).Port
	l.Close()
	return p
}

// publishUntilSwitch does what a publish killed just before its switch
// did: the new generation's chunks and file objects are written and the
// removed files marked, but the ref still names the old generation.
func publishUntilSwitch(t *testing.T, c *Client, src Source, repo, ref, rev string) {
	t.Helper()
	ctx := context.Background()
	commit, err := src.Prepare(ctx, rev)
	if err != nil {
		t.Fatal(err)
	}
	state, err := c.readRef(ctx, repo, ref)
	if err != nil {
		t.Fatal(err)
	}
	files, err := src.Files(ctx, commit)
	if err != nil {
		t.Fatal(err)
	}
	have, err := c.refFiles(ctx, repo, ref, nil)
	if err != nil {
		t.Fatal(err)
	}
	opts := PublishOptions{Repo: repo, Batch: 200}
	plan := planFiles(repo, ref, files, have, src.Model(), state.Gen, state.Gen+1)
	if len(plan.put) == 0 || len(plan.retire) == 0 {
		t.Fatalf("nothing to publish from %s: %+v", rev, plan)
	}
	if err := publishFiles(ctx, c, src, opts, src.Model(), plan.put, state.Gen+1, &RefSummary{Ref: ref}); err != nil {
		t.Fatal(err)
	}
	if err := applyPlan(ctx, c, opts, plan, state.Gen+1); err != nil {
		t.Fatal(err)
	}
}
