package cluster

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/weaviate/weaviate/entities/models"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/internal/testkit/gittest"
	"github.com/bcindex/bcindex/internal/testkit/weaviatetest"
)

// TestOneNode runs against one real weaviate-server on loopback.
func TestOneNode(t *testing.T) {
	t.Parallel() // each starts its own servers; together they fit the package timeout
	srv := weaviatetest.Start(t, 1)
	ctx := context.Background()
	c := open(t, srv.URL())

	t.Run("WrongSchema", func(t *testing.T) {
		// A collection of the same name in another shape is refused, with
		// the URL and what to do.
		bad := &models.Class{Class: ChunkClass, Description: "something else", Vectorizer: "none",
			Properties: []*models.Property{{Name: "body", DataType: []string{"text"}}}}
		if err := c.w.Schema().ClassCreator().WithClass(bad).Do(ctx); err != nil {
			t.Fatal(err)
		}
		r := newRepo(t, 3)
		_, err := Publish(ctx, c, localSource(t, r.Dir), PublishOptions{Repo: "bad", Refs: []string{"main"}})
		if !errors.Is(err, ErrSchema) || !strings.Contains(err.Error(), srv.URL()) || !strings.Contains(err.Error(), "delete the Bcindex") {
			t.Fatalf("publish into a foreign schema: %v", err)
		}
		_, err = Search(ctx, c, SearchOptions{Query: "parse config", Embedder: embed.Default()})
		if !errors.Is(err, ErrSchema) {
			t.Fatalf("search of a foreign schema: %v", err)
		}
		if err := c.w.Schema().ClassDeleter().WithClassName(ChunkClass).Do(ctx); err != nil {
			t.Fatal(err)
		}
	})

	a := newRepo(t, 40)
	var first []RefSummary
	t.Run("PublishSearch", func(t *testing.T) {
		first = publish(t, c, a.Dir, "acme/app")
		s := first[0]
		if s.Files != 40 || s.FilesAdded != 40 || s.ChunksNew == 0 || s.ChunksKnown != 0 || s.Generation != 1 {
			t.Fatalf("first publish: %+v", s)
		}
		if n := count(t, c, ChunkClass); n != int64(s.ChunksNew) {
			t.Fatalf("%d chunk objects, %d sent", n, s.ChunksNew)
		}
		if n := count(t, c, FileClass); n != 40 {
			t.Fatalf("%d file objects, want 40", n)
		}
		if w := c.Warning(); w != "" {
			t.Fatalf("warning from a server without BlockMax WAND: %s", w)
		}
		hits, err := Search(ctx, c, SearchOptions{Query: "ParseConfig0v0", Embedder: embed.Default(), K: 3})
		if err != nil {
			t.Fatal(err)
		}
		if len(hits) == 0 || hits[0].Name != "ParseConfig0v0" || hits[0].Repo != "acme/app" || hits[0].Path != "pkg0/f0.go" ||
			hits[0].Ref != "main" || hits[0].Commit != s.Commit || hits[0].StartLine != 3 || !strings.Contains(hits[0].Snippet, "func ParseConfig0v0") {
			t.Fatalf("exact name: %+v", hits)
		}
		// Meaning: words of the doc comment, not the name.
		hits, err = Search(ctx, c, SearchOptions{Query: "flush the journal number 49", Embedder: embed.Default(), K: 5})
		if err != nil || len(hits) == 0 {
			t.Fatal(hits, err)
		}
		if hits[0].Name != "FlushJournal49v0" {
			t.Errorf("hybrid top hit %s, want FlushJournal49v0", hits[0].Name)
		}
		// Filters.
		for _, tc := range []struct {
			opts SearchOptions
			ok   func(Hit) bool
		}{
			{SearchOptions{Path: "pkg3/**"}, func(h Hit) bool { return strings.HasPrefix(h.Path, "pkg3/") }},
			{SearchOptions{Kind: "function", Lang: "go"}, func(h Hit) bool { return h.Kind == "function" && h.Language == "go" }},
			{SearchOptions{Repo: "acme/*", Refs: []string{"ma*"}}, func(h Hit) bool { return h.Repo == "acme/app" }},
		} {
			tc.opts.Query, tc.opts.Embedder, tc.opts.K = "encode the widget", embed.Default(), 10
			hits, err := Search(ctx, c, tc.opts)
			if err != nil || len(hits) == 0 {
				t.Fatalf("%+v: %v %v", tc.opts, hits, err)
			}
			for _, h := range hits {
				if !tc.ok(h) {
					t.Errorf("%+v: hit %s %s %s outside the filter", tc.opts, h.Repo, h.Path, h.Kind)
				}
			}
		}
		if _, err := Search(ctx, c, SearchOptions{Query: "x", Repo: "nobody/*", Embedder: embed.Default()}); err == nil || !strings.Contains(err.Error(), "git bcindex publish") {
			t.Errorf("no matching repository: %v", err)
		}
	})

	t.Run("Republish", func(t *testing.T) {
		// Nothing changed: nothing is sent.
		again := publish(t, c, a.Dir, "acme/app")
		if !again[0].Unchanged || again[0].ChunksNew != 0 {
			t.Fatalf("republish of the same commit: %+v", again[0])
		}
		before := count(t, c, ChunkClass)
		a.Commit("edit one file", map[string]string{"pkg2/f9.go": goFile(9, 1)})
		s := publish(t, c, a.Dir, "acme/app")[0]
		// One file of five functions changed: its five chunks and its file
		// chunk (the package clause is the same text) at most.
		if s.FilesAdded != 1 || s.FilesRemoved != 1 || s.ChunksNew == 0 || s.ChunksNew > 6 || s.Generation != 2 {
			t.Fatalf("publish after a one-file commit: %+v", s)
		}
		if n := count(t, c, ChunkClass); n != before+int64(s.ChunksNew) {
			t.Fatalf("chunk objects %d → %d, sent %d", before, n, s.ChunksNew)
		}
		if n := count(t, c, FileClass); n != 40 {
			t.Fatalf("%d file objects after the switch, want 40", n)
		}
		hits, err := Search(ctx, c, SearchOptions{Query: "FlushJournal49v1", Embedder: embed.Default(), K: 1})
		if err != nil || len(hits) != 1 || hits[0].Name != "FlushJournal49v1" || hits[0].Commit != s.Commit {
			t.Fatalf("new code: %+v %v", hits, err)
		}
		// The old version is no longer visible (its chunk object stays:
		// content-addressed objects are shared).
		hits, _ = Search(ctx, c, SearchOptions{Query: "FlushJournal49v0", Embedder: embed.Default(), K: 10})
		for _, h := range hits {
			if h.Name == "FlushJournal49v0" {
				t.Fatalf("old version still visible: %+v", h)
			}
		}
	})

	t.Run("Fork", func(t *testing.T) {
		before := count(t, c, ChunkClass)
		dir := filepath.Join(t.TempDir(), "fork")
		a.Git("clone", "-q", a.Dir, dir)
		fork := gittest.At(t, dir)
		fork.Commit("fork changes 2 of 40 files", map[string]string{"pkg0/f7.go": goFile(7, 5), "pkg5/f12.go": goFile(12, 5)})
		s := publish(t, c, fork.Dir, "someone/app-fork")[0]
		if s.ChunksKnown == 0 || float64(s.ChunksNew) > 0.10*float64(first[0].ChunksNew) {
			t.Fatalf("a fork with 5%% of files different sent %d chunk objects (%d known); the original has %d", s.ChunksNew, s.ChunksKnown, first[0].ChunksNew)
		}
		if n := count(t, c, ChunkClass); float64(n-before) > 0.10*float64(before) {
			t.Fatalf("chunk objects %d → %d: more than 10%%", before, n)
		}
		// Shared code is one object found in both repositories.
		hits, err := Search(ctx, c, SearchOptions{Query: "HashPacket3v0", Embedder: embed.Default(), K: 1})
		if err != nil || len(hits) != 1 || hits[0].Repo != "acme/app" || len(hits[0].AlsoIn) != 1 || !strings.HasPrefix(hits[0].AlsoIn[0], "someone/app-fork@main:") {
			t.Fatalf("shared chunk: %+v %v", hits, err)
		}
		hits, err = Search(ctx, c, SearchOptions{Query: "HashPacket3v0", Repo: "someone/*", Embedder: embed.Default(), K: 1})
		if err != nil || len(hits) != 1 || hits[0].Repo != "someone/app-fork" {
			t.Fatalf("--repo on a shared chunk: %+v %v", hits, err)
		}
	})

	t.Run("KilledBeforeSwitch", func(t *testing.T) {
		// A publish of a newer commit killed just before its switch, then a
		// run of the published commit again: the ref ends with exactly that
		// commit's file objects, none of the newer ones left behind.
		src := localSource(t, a.Dir)
		published, err := c.readRef(ctx, "acme/app", "main")
		if err != nil {
			t.Fatal(err)
		}
		a.Commit("two edits and a new file", map[string]string{"pkg0/f0.go": goFile(0, 7), "pkg1/f1.go": goFile(1, 7), "new/n.go": goFile(77, 0)})
		publishUntilSwitch(t, c, src, "acme/app", "main", "HEAD")
		hits, err := Search(ctx, c, SearchOptions{Query: "ParseConfig0v7", Repo: "acme/app", Embedder: embed.Default(), K: 10})
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range hits {
			if h.Commit != published.Commit || h.Name == "ParseConfig0v7" {
				t.Fatalf("a half-published commit is visible: %+v", h)
			}
		}
		s, err := Publish(ctx, c, src, PublishOptions{Repo: "acme/app", Refs: []string{"main"}, Revs: []string{published.Commit}})
		if err != nil {
			t.Fatal(err)
		}
		if !s[0].Unchanged || s[0].Generation != published.Gen || s[0].FilesAdded != 0 || s[0].ChunksNew != 0 || s[0].Repaired != 5 {
			t.Fatalf("publish of the published commit: %+v", s[0])
		}
		have, err := c.refFiles(ctx, "acme/app", "main", nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(have) != 40 {
			t.Fatalf("%d file objects, want the published commit's 40", len(have))
		}
		for _, h := range have {
			if h.from > published.Gen || h.until != live {
				t.Fatalf("file object %+v at generation %d", h, published.Gen)
			}
		}
	})

	t.Run("PassedBack", func(t *testing.T) {
		// A replica that missed a file's deletion can pass the old object
		// back, live: of two visible objects of one path the newer wins, and
		// the next publish deletes the old one.
		src := localSource(t, a.Dir)
		published, err := c.readRef(ctx, "acme/app", "main")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := src.Prepare(ctx, published.Commit); err != nil {
			t.Fatal(err)
		}
		old := strings.TrimSpace(a.Git("rev-parse", first[0].Commit+":pkg2/f9.go"))
		cs, err := src.Chunks(ctx, old)
		if err != nil || len(cs) == 0 {
			t.Fatal(cs, err)
		}
		var ids, crumbs []string
		var spans []int64
		for _, ch := range cs {
			ids = append(ids, ChunkID(src.Model(), ch.Hash))
			crumbs = append(crumbs, ch.Crumb)
			spans = append(spans, int64(ch.StartLine), int64(ch.EndLine), int64(ch.StartByte), int64(ch.EndByte))
		}
		id := fileID("acme/app", "main", src.Model(), "pkg2/f9.go", old)
		if err := c.upsert(ctx, []*models.Object{{Class: FileClass, ID: uuidOf(id), Properties: map[string]any{
			"repo": "acme/app", "ref": "main", "path": "pkg2/f9.go", "blob": old, "chunks": ids, "spans": spans,
			"crumbs": crumbs, "seq": fileSeq(id), "from": int64(1), "until": live}}}); err != nil {
			t.Fatal(err)
		}
		hits, err := Search(ctx, c, SearchOptions{Query: "FlushJournal49v0", Embedder: embed.Default(), K: 10})
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range hits {
			if h.Blob == old {
				t.Fatalf("a superseded file object is visible: %+v", h)
			}
		}
		s, err := Publish(ctx, c, src, PublishOptions{Repo: "acme/app", Refs: []string{"main"}, Revs: []string{published.Commit}})
		if err != nil || !s[0].Unchanged || s[0].Repaired != 1 {
			t.Fatalf("publish after a passed-back file: %+v %v", s, err)
		}
		if have, err := c.refFiles(ctx, "acme/app", "main", nil); err != nil || len(have) != 40 {
			t.Fatalf("%d file objects of the ref after the repair (%v), want 40", len(have), err)
		}
	})

	t.Run("Unreachable", func(t *testing.T) {
		url := fmt.Sprintf("http://127.0.0.1:%d", closedPort(t))
		_, err := Open(ctx, url)
		if !errors.Is(err, ErrUnreachable) || !strings.Contains(err.Error(), url) || !strings.Contains(err.Error(), "bcindex.remote.url") {
			t.Fatalf("unreachable cluster: %v", err)
		}
	})
}

// TestBlockMaxWarning: a cluster whose chunk collection ranks BM25 with
// BlockMax WAND (Weaviate's default) is named in a warning with what to do;
// one without it, as the tests run it, gives none.
func TestBlockMaxWarning(t *testing.T) {
	t.Parallel()
	srv := weaviatetest.Start(t, 1, "USE_INVERTED_SEARCHABLE=true")
	ctx := context.Background()
	c := open(t, srv.URL())
	r := newRepo(t, 3)
	publish(t, c, r.Dir, "acme/wand")
	w := c.Warning()
	if !strings.Contains(w, srv.URL()) || !strings.Contains(w, "USE_INVERTED_SEARCHABLE=false") {
		t.Fatalf("warning after publishing with BlockMax WAND: %q", w)
	}
	// A fresh client learns it from the schema a search reads.
	c2 := open(t, srv.URL())
	if _, err := Search(ctx, c2, SearchOptions{Query: "parse config", Embedder: embed.Default()}); err != nil {
		t.Fatal(err)
	}
	if c2.Warning() != w {
		t.Fatalf("warning after a search: %q, want %q", c2.Warning(), w)
	}
}
