// Package search answers queries over one revision of a repository.
//
// A query's Plan resolves its revisions and compiles its filters once
// (open.go); the front end opens the plan's Want, and a Searcher over that
// view takes the query and the options apart (searcher.go).
//
// Three arms run over the chunks of the revision's tree: symbol (exact,
// case-insensitive and prefix matches on chunk names), text (BM25 over
// code-aware sub-tokens from package lexical) and vector (exact flat cosine
// over int8 vectors from package vector). The hybrid fuses their
// normalised scores by a convex combination (convex.go); one arm alone is
// ranked by reciprocal rank. Code-aware adjustments follow in every mode
// (definitions over file-level text, exact symbol hits, path matches, types
// below code for a query in words, tests down-weighted unless the query
// asks for tests). --mode runs one arm alone through the same code, so each
// arm can be measured on its own. Generated summaries (`git bcindex
// enhance`) join the text and vector arms through the summary index, by
// content hash (summaries.go).
package search
