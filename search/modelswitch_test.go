package search

import (
	"testing"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/internal/testkit/gittest"
)

// previousBuiltin stands for the built-in model of an earlier release: same
// dimension, another built-in ID, other vectors (the hash embedder's).
type previousBuiltin struct{ embed.Embedder }

func (previousBuiltin) ID() string { return "bcindex-code-v1" }

// TestSearchAfterTheBuiltinModelChanged: an index whose vectors were
// computed by an earlier built-in model is searched with the current one.
// Its vectors are never read as the new model's; with --no-index the search
// still answers from symbols and BM25 and says how many chunks lack vectors;
// a search that may index computes them.
func TestSearchAfterTheBuiltinModelChanged(t *testing.T) {
	if embed.Default().ID() == "bcindex-code-v1" {
		t.Fatal("the stand-in for an earlier model has the built-in model's ID")
	}
	r := gittest.New(t)
	r.Commit("init", map[string]string{"net/retry.go": gittest.RetryGo, "cfg/config.py": gittest.ConfigPy})
	repo := openRepo(t, r.Dir)
	old := previousBuiltin{embed.Hash{}}
	if _, sum := runIndexing(t, repo, Options{Query: "retry", Embedder: old}); sum == nil || sum.Embedded == 0 {
		t.Fatalf("indexing with the earlier model embedded nothing: %+v", sum)
	}

	res := runAsIs(t, repo, Options{Query: "RetryWithBackoff"})
	if res.NoVectors == 0 {
		t.Errorf("--no-index after the model changed: NoVectors = 0, want the chunks indexed under the earlier model")
	}
	if !hasHit(res, "RetryWithBackoff") {
		t.Errorf("--no-index after the model changed: RetryWithBackoff not found by name: %+v", res.Hits)
	}
	if vec := runAsIs(t, repo, Options{Query: "parse the config file", Mode: ModeVector}); len(vec.Hits) != 0 {
		t.Errorf("vector arm served %d hits from another model's vectors", len(vec.Hits))
	}

	res, sum := runIndexing(t, repo, Options{Query: "parse the config file", Mode: ModeVector})
	if sum == nil || sum.Embedded == 0 || sum.BlobsNew != 0 {
		t.Fatalf("search after the model changed did not compute the new vectors alone: %+v", sum)
	}
	if res.NoVectors != 0 || len(res.Hits) == 0 || res.Hits[0].Name != "parse_config_file" {
		t.Fatalf("vector search with the new model: %d without vectors, hits %+v", res.NoVectors, res.Hits)
	}
	// The earlier model's vectors stay until gc: switching back costs nothing.
	if back := runAsIs(t, repo, Options{Query: "retry", Embedder: old}); back.NoVectors != 0 {
		t.Errorf("earlier model's vectors gone after the switch: %d chunks without", back.NoVectors)
	}
}
