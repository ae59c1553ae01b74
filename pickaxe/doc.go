// Package pickaxe answers "when did this string appear, and when did it
// go": the first-parent commits of a history where a file's number of
// matches changed, the commits `git log --first-parent --no-renames -S/-G`
// lists. The side table (side.go) holds the commits merged into that
// history, which plain git log walks too, for the same decisions.
//
// Two parts make it fast. The change table (table.go, history.go) caches,
// per first-parent commit, the (path, old blob, new blob) pairs it changed
// against its first parent, so that a query diffs no trees. A Candidates
// predicate, answered by an index of the blobs' n-grams, rules out pairs
// where neither side can hold the pattern, so that only the rest are read
// (IndexCandidates asks the store's trigram postings; -S reads binary
// blobs, which have none, as git counts matches in them too);
// counts are kept per blob within a query, since a file's new blob in one
// commit is its old blob in the next. Without an index every pair is read,
// and the answer is the same.
//
// The decisions follow git's diffcore-pickaxe.c. -S compares the number
// of non-overlapping occurrences in the old and new blob (a regex with
// Regex set, counted leftmost-longest as POSIX regexec does); -G asks
// whether a line the diff adds or removes matches, and skips binary files
// (a NUL in the first 8000 bytes) unless Text is set. A merge on the
// first-parent line is diffed against its first parent and a root commit
// against the empty tree, as `git log --first-parent` does since git 2.31.
// -i folds ASCII letters only for a plain string, as git's kwset does.
// For -G, most changes are decided from the lines alone: lines both blobs
// begin and end with are never in git's diff, and a matching line whose
// number of copies changed is in any diff. When matching lines remain on
// both sides in equal numbers, only the diff's alignment can tell, and
// git's own diff of the two blobs decides (it honours diff.algorithm, as
// git log does). The lines a match shows are the ones git's diff adds
// and removes: where a matching line's text is in both blobs, which copies
// are new is the alignment's to say, and git's diff says it too (unless
// Options.CommitsOnly leaves the lines out).
//
// Regexes are RE2 syntax read with git's REG_NEWLINE rules ('.' and [^...]
// never match a newline, '^' and '$' match at line boundaries); GNU's \<
// and \> are read as \b. .gitattributes and textconv drivers are not
// consulted.
//
// Renames: this package follows `git log --no-renames`: a rename is the
// deletion of one path and the addition of another, as git's plumbing and
// any git before 2.9 report it. It is the rule that needs no similarity
// scoring, so the change table holds plain tree diffs and a rename costs
// nothing more than any change. It also answers the pickaxe's question
// literally: the commit that moved a string from one file to another is
// listed, with the file that lost it and the file that gained it, where
// rename detection would pair the two files, find the count unchanged, and
// list nothing. `git log -S` with rename detection (its default since 2.9)
// can therefore list fewer commits; the differential tests run git with
// --no-renames.
package pickaxe
