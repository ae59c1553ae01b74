// Package bench is bcindex's benchmark harness: it measures indexing and
// search on real code nobody here wrote, offline, and evaluates the
// performance targets of the project in one run.
//
// A run fetches a large Go module through the module proxy (`go mod
// download`), optionally adds GOROOT/src, and commits it into a temporary
// repository with a realistic history: the tree arrives over several
// commits, a second branch differs from the first in about 1% of its files,
// and a last commit changes a single file. It builds the real git-bcindex
// binary and drives it as a user would (a cold process per command), and it
// also searches in-process through the indexer and search packages to
// measure a warm process. Optionally it grows the repository by adding
// modified copies of the corpus until the index holds about a million
// chunks, and measures queries again at that size. Last, it clones a real
// repository (by default the one it runs in) and indexes its HEAD, then its
// first-parent history, to report the cost per 1,000 commits and the store's
// growth over a single revision.
//
// Everything measured is reported as a Report: a text table (WriteText) and
// JSON. Targets are ratios measured in the same run, so a noisy, shared
// machine moves both sides of each ratio alike.
//
// The command is cmd/bcindex-bench; `-quick` runs a small smoke corpus
// (GOROOT/src/net) that the package test exercises.
package bench
