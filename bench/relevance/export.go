package relevance

import "github.com/bcindex/bcindex/gitindex"

// What other benchmarks need of a built repository and of the scoring
// rules, so that they measure on the same trees and count coverage the
// same way.

// Rev is the revision the built tree is committed at.
func (r *Repo) Rev() string { return branch }

// Git is the built tree's repository, opened.
func (r *Repo) Git() *gitindex.Repo { return r.repo }

// RepoPath writes a path of the built tree as the suite's targets are
// written (benchmark_root included).
func (r *Repo) RepoPath(p string) string { return r.repoPath(p) }

// Covers reports whether a result at path, lines start to end, covers t
// (semble's target_matches_location).
func (t Target) Covers(path string, start, end int) bool { return covers(path, start, end, t) }
