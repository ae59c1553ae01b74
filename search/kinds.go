package search

import "github.com/bcindex/bcindex/chunk"

// kindPrior weighs a chunk by its kind: a file's outline (its imports and
// its definitions' signatures resemble every query its definitions answer
// better), a window of unstructured text and a block inside a function
// below the definitions; and for a query in words, types, constants and
// variables below the code that does something (typePrior, valuePrior).
func (f fusionConfig) kindPrior(kind string, inWords bool) float64 {
	m := 1.0
	switch kind {
	case chunk.KindFile:
		m = 0.5
	case chunk.KindWindow:
		m = 0.8
	case chunk.KindBlock:
		m = 0.9
	}
	if inWords && isType(kind) {
		m *= f.typePrior
	}
	if inWords && (kind == chunk.KindVar || kind == chunk.KindConst) {
		m *= f.valuePrior
	}
	return m
}

// defaultKindPrior is kindPrior of the tuned fusion settings.
var defaultKindPrior = defaultFusion().kindPrior

// KindPrior is the weight the ranking gives a chunk of that kind, for a
// query in words (query.Query.InWords) or not. The cluster's search weighs
// its hits by it, so both rank kinds alike.
func KindPrior(kind string, inWords bool) float64 { return defaultKindPrior(kind, inWords) }
