package search

import (
	"testing"

	"github.com/bcindex/bcindex/chunk"
)

// allKinds are the chunk kinds the chunkers write.
var allKinds = []string{chunk.KindFile, chunk.KindFunction, chunk.KindMethod, chunk.KindClass, chunk.KindType,
	chunk.KindInterface, chunk.KindStruct, chunk.KindEnum, chunk.KindSection, chunk.KindWindow, chunk.KindBlock,
	chunk.KindKey, chunk.KindParagraph, chunk.KindTrait, chunk.KindModule, chunk.KindImpl, chunk.KindConst,
	chunk.KindVar, chunk.KindTable, chunk.KindStage}

// TestKindPrior: outlines, windows and blocks rank below definitions;
// for a query in words, types, constants and variables below code that
// runs; KindPrior is what the tuned fusion applies.
func TestKindPrior(t *testing.T) {
	want := map[string][2]float64{ // kind: {code query, query in words}
		chunk.KindFile: {0.5, 0.5}, chunk.KindWindow: {0.8, 0.8}, chunk.KindBlock: {0.9, 0.9},
		chunk.KindClass: {1, 0.8}, chunk.KindStruct: {1, 0.8}, chunk.KindInterface: {1, 0.8}, chunk.KindTrait: {1, 0.8},
		chunk.KindImpl: {1, 0.8}, chunk.KindModule: {1, 0.8}, chunk.KindEnum: {1, 0.8}, chunk.KindType: {1, 0.8},
		chunk.KindConst: {1, 0.4}, chunk.KindVar: {1, 0.5},
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
