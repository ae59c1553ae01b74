package search

import (
	"sync"

	"github.com/bcindex/bcindex/chunk/vocab"
	"github.com/bcindex/bcindex/query"
)

// kindPrior weighs a chunk by its kind: a file's outline (its imports and
// its definitions' signatures resemble every query its definitions answer
// better), a window of unstructured text and a block inside a function
// below the definitions; and for a query in words, types, constants and
// variables below the code that does something (typePrior, valuePrior).
func (f fusionConfig) kindPrior(kind string, inWords bool) float64 {
	m := 1.0
	switch kind {
	case vocab.KindFile:
		m = 0.5
	case vocab.KindWindow:
		m = 0.8
	case vocab.KindBlock:
		m = 0.9
	}
	if inWords && isType(kind) {
		m *= f.typePrior
	}
	if inWords && (kind == vocab.KindVar || kind == vocab.KindConst) {
		m *= f.valuePrior
	}
	return m
}

// KindPrior is the weight the ranking gives a chunk of that kind, for a
// query in words (query.Query.InWords) or not. The cluster's search weighs
// its hits by it, so both rank kinds alike.
func KindPrior(kind string, inWords bool) float64 { return priorFusion().kindPrior(kind, inWords) }

// chunkPrior is kindPrior with the path's part, what chunk search
// multiplies a chunk's fused score by: a test, spec or test helper
// (isTestPath) below unless the query asks for tests, a file or directory
// that a query word names above.
func (f fusionConfig) chunkPrior(kind, p string, q *query.Query) float64 {
	m := f.kindPrior(kind, q.InWords())
	if isTestPath(p) && !wantsTests(q) {
		m *= 0.7
	}
	if pathMatchesQuery(p, q.Tokens) {
		m *= 1.15
	}
	return m
}

// wantsTests reports whether a query asks for tests.
func wantsTests(q *query.Query) bool { return q.Has("test") || q.Has("tests") || q.Has("spec") }

// priorFusion holds the tuned settings KindPrior weighs by, made
// on first use (they hold the rerank models, parsed then), not in package
// initialisation.
var priorFusion = sync.OnceValue(tunedFusion)
