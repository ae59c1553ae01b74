// Package relevance measures how well bcindex ranks code for questions
// people ask, on suites in the shape of semble's published code-search
// benchmark: a directory holding repos.json (each repository's URL, pinned
// revision, language and benchmark_root, the subdirectory that is indexed)
// and annotations/<name>.json (queries, each with relevant and secondary
// targets, a path or a path with a line span, and a category).
//
// For each repository it builds a commit whose tree is benchmark_root at
// the pinned revision (the source repository is only read), indexes it in
// this process with the built-in model, and asks every query of every mode
// — the symbol, text and vector arms alone, the hybrid, and plain BM25
// over the chunks as a baseline — scoring the ten best hits the way
// semble's run_benchmark.py does: a hit covers a target when its path
// matches (either path a suffix of the other) and, for a span, its lines
// overlap; a target counts once, at the first hit covering it; NDCG@k is
// taken against the targets some chunk of the index covers; means per
// repository, then the mean of the repositories. It also reports NDCG@5,
// file hit@1 and @3, cold index time and in-process query latency, per
// repository, language and category.
//
// The command is `bcindex-bench suite` (cmd/bcindex-bench); Open and
// (*Repo).Search give other benchmarks the ranked hits of one query.
package relevance
