package cluster

import (
	"testing"

	"github.com/bcindex/bcindex/chunk"
	"github.com/bcindex/bcindex/search"
)

// TestClusterWeighsKindsAsSearch: the cluster's hits are weighed by kind
// exactly as local search's fusion weighs its rows, for every chunk kind.
func TestClusterWeighsKindsAsSearch(t *testing.T) {
	kinds := []string{chunk.KindFile, chunk.KindFunction, chunk.KindMethod, chunk.KindClass, chunk.KindType,
		chunk.KindInterface, chunk.KindStruct, chunk.KindEnum, chunk.KindSection, chunk.KindWindow, chunk.KindBlock,
		chunk.KindKey, chunk.KindParagraph, chunk.KindTrait, chunk.KindModule, chunk.KindImpl, chunk.KindConst,
		chunk.KindVar, chunk.KindTable, chunk.KindStage}
	differ := false
	for _, k := range kinds {
		for _, inWords := range []bool{false, true} {
			got, want := weigh(2, map[string]any{"kind": k}, inWords), 2*search.KindPrior(k, inWords)
			if got != want {
				t.Errorf("cluster weighs %s (inWords %v) %v; local search %v", k, inWords, got, want)
			}
			differ = differ || got != 2
		}
	}
	if !differ {
		t.Error("no kind is weighed at all: the priors are not applied")
	}
}
