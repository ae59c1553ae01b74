package indexer

import (
	"strings"
	"testing"

	"github.com/bcindex/bcindex/chunk"
	"github.com/bcindex/bcindex/chunk/vocab"
	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/internal/testkit/gittest"
	"github.com/bcindex/bcindex/segment"
	"github.com/bcindex/bcindex/store"
)

// TestRowsReadAsTheirChunks: a blob's segment rows give back the chunks
// Split made (storedFile, the base of an edit) and, read as
// segment.BlobSpans, the very text each chunk was indexed by, which is how
// readers (similar, the cluster) compute it without chunking again.
func TestRowsReadAsTheirChunks(t *testing.T) {
	long := strings.Repeat("Some prose about the installer, one line of many.\n", 80)
	files := map[string]string{
		"calc.go": gittest.CalcGo,
		"shapes.py": "class Shape:\n    \"\"\"A shape.\"\"\"\n\n    def area(self):\n        return 0\n\n" +
			"    def name(self):\n        return 'shape'\n\n\ndef total(shapes):\n    return sum(s.area() for s in shapes)\n",
		"README.md":  "# Tool\n\nIntro.\n\n## Install\n\n" + long + "\n## Use\n\nRun it.\n",
		"broken.go":  "package p\n\nfunc ok() int { return 1 }\n\nfunc broken( {\n\treturn\n}\n\nfunc after() int { return 2 }\n",
		"notes.conf": strings.Repeat("key = value\n", 120),
	}
	r := gittest.New(t)
	r.Commit("init", files)
	emb := embed.Default()
	indexRevs(t, r.Dir, emb, "HEAD")
	snap := openSnap(t, r.Dir, emb)

	indexed := 0
	for path, src := range files {
		content := []byte(src)
		f := chunk.Split(path, content)
		sha := hashOf(t, strings.TrimSpace(r.Git("rev-parse", "HEAD:"+path)))
		rows, first, info, ok := snap.BlobRows(sha)
		if !ok {
			t.Fatalf("%s: no rows", path)
		}
		if len(rows) != len(f.Chunks) {
			t.Fatalf("%s: %d rows, Split makes %d chunks", path, len(rows), len(f.Chunks))
		}
		stored := storedFile(first, rows, info)
		if stored.Language != f.Language || stored.Fallback != f.Fallback || stored.SyntaxErrors != f.SyntaxErrors {
			t.Errorf("%s: stored file %q fallback %v errors %d, Split's %q %v %d", path,
				stored.Language, stored.Fallback, stored.SyntaxErrors, f.Language, f.Fallback, f.SyntaxErrors)
		}
		spans := segment.BlobSpans{First: first, Rows: rows}
		for i, c := range f.Chunks {
			s := stored.Chunks[i]
			if s.Kind != c.Kind || s.Name != c.Name || s.Parent != c.Parent || s.Signature != c.Signature ||
				s.StartByte != c.StartByte || s.EndByte != c.EndByte || s.StartLine != c.StartLine ||
				s.QualifiedName != c.QualifiedName || s.SyntaxError != c.SyntaxError {
				t.Errorf("%s chunk %d: stored %+v, Split %+v", path, i, s, c)
			}
			if spans.Span(i) != f.Span(i) {
				t.Errorf("%s chunk %d: the rows' span %+v, Split's %+v", path, i, spans.Span(i), f.Span(i))
			}
			text := vocab.IndexText(content, spans, i)
			if want := vocab.IndexText(content, f, i); text != want {
				t.Errorf("%s chunk %d: the rows read as %q, Split's chunk as %q", path, i, text, want)
			}
			if rows[i].Indexed {
				indexed++
				if store.ContentHash(text) != rows[i].Hash {
					t.Errorf("%s chunk %d (%s %s): the rows' text is not the text indexed", path, i, c.Kind, c.Name)
				}
			}
		}
	}
	if indexed < 10 {
		t.Errorf("only %d indexed rows compared", indexed)
	}
}
