package search

import (
	"testing"

	"github.com/bcindex/bcindex/chunk/vocab"
)

// allKinds are the chunk kinds the chunkers write.
var allKinds = []string{vocab.KindFile, vocab.KindFunction, vocab.KindMethod, vocab.KindClass, vocab.KindType,
	vocab.KindInterface, vocab.KindStruct, vocab.KindEnum, vocab.KindSection, vocab.KindWindow, vocab.KindBlock,
	vocab.KindKey, vocab.KindParagraph, vocab.KindTrait, vocab.KindModule, vocab.KindImpl, vocab.KindConst,
	vocab.KindVar, vocab.KindTable, vocab.KindStage}

// TestKindPrior: outlines, windows and blocks rank below definitions;
// for a query in words, types, constants and variables below code that
// runs; KindPrior is what the tuned fusion applies.
func TestKindPrior(t *testing.T) {
	want := map[string][2]float64{ // kind: {code query, query in words}
		vocab.KindFile: {0.5, 0.5}, vocab.KindWindow: {0.8, 0.8}, vocab.KindBlock: {0.9, 0.9},
		vocab.KindClass: {1, 0.8}, vocab.KindStruct: {1, 0.8}, vocab.KindInterface: {1, 0.8}, vocab.KindTrait: {1, 0.8},
		vocab.KindImpl: {1, 0.8}, vocab.KindModule: {1, 0.8}, vocab.KindEnum: {1, 0.8}, vocab.KindType: {1, 0.8},
		vocab.KindConst: {1, 0.4}, vocab.KindVar: {1, 0.5},
	}
	f := defaultFusion()
	for _, k := range allKinds {
		for i, inWords := range []bool{false, true} {
			w, ok := want[k]
			if !ok {
				w = [2]float64{1, 1}
			}
			got := KindPrior(k, inWords)
			if d := got - w[i]; d > 1e-9 || d < -1e-9 {
				t.Errorf("KindPrior(%s, inWords %v) = %v; want %v", k, inWords, got, w[i])
			}
			if fused := f.kindPrior(k, inWords); fused != got {
				t.Errorf("fusion weighs %s (inWords %v) %v, KindPrior %v", k, inWords, fused, got)
			}
		}
	}
}
