package cluster

import (
	"testing"

	"github.com/bcindex/bcindex/chunk/vocab"
	userq "github.com/bcindex/bcindex/query"
	"github.com/bcindex/bcindex/search"
)

// TestClusterWeighsKindsAsSearch: the cluster's hits are weighed by kind
// and path exactly as local search's fusion weighs its rows, for every
// chunk kind, a test path and a path the query names.
func TestClusterWeighsKindsAsSearch(t *testing.T) {
	words, err := userq.Parse("retry the request with backoff")
	if err != nil {
		t.Fatal(err)
	}
	name, err := userq.Parse("Backoff")
	if err != nil {
		t.Fatal(err)
	}
	kinds := []string{vocab.KindFile, vocab.KindFunction, vocab.KindMethod, vocab.KindClass, vocab.KindType,
		vocab.KindInterface, vocab.KindStruct, vocab.KindEnum, vocab.KindSection, vocab.KindWindow, vocab.KindBlock,
		vocab.KindKey, vocab.KindParagraph, vocab.KindTrait, vocab.KindModule, vocab.KindImpl, vocab.KindConst,
		vocab.KindVar, vocab.KindTable, vocab.KindStage}
	differ := false
	for _, k := range kinds {
		for _, q := range []*userq.Query{&words, &name} {
			for _, p := range []string{"net/client.go", "net/client_test.go", "net/backoff.go"} {
				got, want := weigh(2, map[string]any{"kind": k, "path": p}, q), 2*search.Prior(k, p, q)
				if got != want {
					t.Errorf("cluster weighs %s at %s for %q %v; local search %v", k, p, q.Raw, got, want)
				}
				differ = differ || got != 2
			}
		}
	}
	if weigh(1, map[string]any{"kind": vocab.KindFunction, "path": "net/client_test.go"}, &words) >= weigh(1, map[string]any{"kind": vocab.KindFunction, "path": "net/client.go"}, &words) {
		t.Error("a test weighs as much as the code it tests")
	}
	if !differ {
		t.Error("no kind is weighed at all: the priors are not applied")
	}
}
