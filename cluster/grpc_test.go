package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/internal/testkit/weaviatetest"
)

// TestGRPCWrites publishes one repository to two servers, over REST and
// over gRPC: every object must come out the same, and a search of each
// must answer alike.
func TestGRPCWrites(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	rest, viaGRPC := weaviatetest.Start(t, 1), weaviatetest.Start(t, 1)
	r := newRepo(t, 30)
	// Docs the local index clips to 300 bytes, and docs of a file in
	// Latin-1, reach the cluster as whole UTF-8 characters (gRPC refuses
	// anything else). A file name in Latin-1 reaches publish as it is in
	// git: validUTF8 (send.go) makes it UTF-8 over gRPC as JSON does over
	// REST.
	long := func(name, lead string) string {
		return "// " + name + " " + lead + strings.Repeat("é", 200) + "\nfunc " + name + "() {}\n\n"
	}
	latin1 := "// Cafe returns a caf\xe9 au lait, \xe0 la fran\xe7aise.\nfunc Cafe() {}\n"
	r.Commit("odd docs", map[string]string{"pkg0/docs.go": "package p0\n\n" + long("Odd", "a") + long("Even", "ab") + latin1,
		"pkg0/caf\xe9.go": "package p0\n\n// Brew makes coffee.\nfunc Brew() {}\n"})
	src := localSource(t, r.Dir)
	commit, err := src.Prepare(ctx, "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	files, _ := src.Files(ctx, commit)
	docs, latin1Paths := 0, 0
	for _, f := range files {
		if !utf8.ValidString(f.Path) {
			latin1Paths++
		}
		cs, _ := src.Chunks(ctx, f.Blob)
		for _, c := range cs {
			if !utf8.ValidString(c.Doc) {
				t.Fatalf("%s: doc %q is not UTF-8", c.Name, c.Doc)
			}
			if c.Name == "Odd" || c.Name == "Even" || c.Name == "Cafe" {
				docs++
			}
		}
	}
	if docs != 3 || latin1Paths != 1 {
		t.Fatalf("%d of the three odd docs and %d of the one Latin-1 path found", docs, latin1Paths)
	}
	cr := open(t, rest.URL())
	cg, err := OpenWith(ctx, viaGRPC.URL(), Options{GRPC: viaGRPC.Nodes[0].GRPC})
	if err != nil {
		t.Fatal(err)
	}
	sr, sg := publish(t, cr, r.Dir, "acme/app"), publish(t, cg, r.Dir, "acme/app")
	if !reflect.DeepEqual(sr, sg) || sg[0].ChunksNew == 0 {
		t.Fatalf("publish over REST %+v, over gRPC %+v", sr, sg)
	}
	for _, class := range []string{ChunkClass, FileClass, RefClass} {
		want, got := allObjects(t, cr, class), allObjects(t, cg, class)
		if len(want) == 0 || len(got) != len(want) {
			t.Fatalf("%s: %d objects over REST, %d over gRPC", class, len(want), len(got))
		}
		for id, w := range want {
			if got[id] != w {
				t.Fatalf("%s %s over REST:\n%s\nover gRPC:\n%s", class, id, w, got[id])
			}
		}
	}
	for _, q := range []string{"ParseConfig0v0", "merge the ledger"} {
		hr, err := Search(ctx, cr, SearchOptions{Query: q, K: 5, Embedder: embed.Default()})
		if err != nil {
			t.Fatal(err)
		}
		hg, err := Search(ctx, cg, SearchOptions{Query: q, K: 5, Embedder: embed.Default()})
		if err != nil || len(hr) == 0 || len(hg) != len(hr) || hg[0].Path != hr[0].Path || hg[0].StartLine != hr[0].StartLine {
			t.Fatalf("%q: over REST %+v, over gRPC %+v (%v)", q, hr, hg, err)
		}
	}

	t.Run("Unreachable", func(t *testing.T) {
		addr := fmt.Sprintf("127.0.0.1:%d", closedPort(t))
		_, err := OpenWith(ctx, viaGRPC.URL(), Options{GRPC: addr})
		if !errors.Is(err, ErrUnreachable) || !strings.Contains(err.Error(), addr) || !strings.Contains(err.Error(), "bcindex.remote.grpc") {
			t.Fatalf("gRPC at a closed port: %v", err)
		}
	})
	t.Run("HTTPS", func(t *testing.T) {
		// The Weaviate client does not check gRPC certificates.
		_, err := OpenWith(ctx, "https://weaviate.example:443", Options{GRPC: "weaviate.example:50051"})
		if err == nil || !strings.Contains(err.Error(), "http://") {
			t.Fatalf("gRPC with an https URL: %v", err)
		}
	})
}

// allObjects reads every object of class with its vector, as JSON by ID.
func allObjects(t *testing.T, c *Client, class string) map[string]string {
	t.Helper()
	out := map[string]string{}
	after := ""
	for {
		g := c.w.Data().ObjectsGetter().WithClassName(class).WithVector().WithLimit(100)
		if after != "" {
			g = g.WithAfter(after)
		}
		objs, err := g.Do(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range objs {
			b, err := json.Marshal(map[string]any{"properties": o.Properties, "vector": o.Vector})
			if err != nil {
				t.Fatal(err)
			}
			out[o.ID.String()] = string(b)
			after = o.ID.String()
		}
		if len(objs) < 100 {
			return out
		}
	}
}

// TestValidString: text properties are made UTF-8 as JSON encoding makes
// them, so objects written over gRPC and over REST are the same.
func TestValidString(t *testing.T) {
	for _, s := range []string{"", "plain", "caf\xe9", "\xff\xfe\xfd", "ok \xe2\x82 cut", "日本\xe6語", "\xed\xa0\x80 surrogate"} {
		b, _ := json.Marshal(s)
		var want string
		if err := json.Unmarshal(b, &want); err != nil {
			t.Fatal(err)
		}
		if got := validString(s); got != want {
			t.Errorf("%q: %q, through JSON %q", s, got, want)
		}
	}
}
