// Package exact is the matcher and query planner behind `git bcindex grep`:
// it finds the lines of a file that a set of patterns matches, with git
// grep's semantics, and plans which files can hold a match from their
// trigrams.
//
// # Lines
//
// A file is a sequence of lines separated by '\n'; a last line without
// '\n' counts, and after a final '\n' there is no further line. '\r' is an
// ordinary byte, so CRLF lines keep it and `x$` does not match "x\r".
// Nothing is decoded or normalised: a literal pattern (-F, or a regex with
// no operator) matches its bytes wherever they are, and regex constructs
// (".", classes, -i letters) match valid UTF-8 only, never a byte of an
// invalid sequence, as git grep -P does in a UTF-8 locale. Binary detection
// is the caller's (git's -I rule is a NUL in the first 8000 bytes).
//
// No match crosses a line. Patterns are parsed with Go's regexp/syntax
// (Perl flags, minus OneLine and ClassNL) and the tree is rewritten before
// it is compiled: ^ and $ are line anchors; '\n' leaves every class, \s
// and negated classes included; a pattern holding an escaped newline (\n,
// \x0a) matches nothing. \A and \z (POSIX's \` and \', PCRE's \Z) are
// the ends of what git gives the engine: the rest of the file when it
// looks ahead for the next hit, a line when it checks one (see anchored). A pattern holding an actual newline is split
// there into several patterns, as git grep splits it. With several
// patterns (-e P1 -e P2) a line matches if any does, and its spans are the
// union of each pattern's matches, merged.
//
// # -w
//
// Word matching is git grep's rule (grep.c, match_one_pattern), not \b: a
// match counts if it is not empty, starts the line or follows a byte that
// is not a word byte [A-Za-z0-9_], and ends the line or precedes one. When
// the leftmost match on a line fails, the search resumes one byte after
// its start, past the rest of that word, with ^ no longer matching (git's
// REG_NOTBOL), and the resumed search sees only the rest of the line, so \b
// and $ behave as in git. So `-w foo` matches "foo_bar foo", and `-w ^foo`
// does not match "foo_x foo". Because git resumes bytewise, a resumed
// search can start inside a UTF-8 sequence; those bytes are skipped, as
// PCRE in UTF mode matches nothing in them.
//
// # Case
//
// -i follows Unicode simple case folding, as Go and PCRE do: "kelvin"
// matches "\u212Aelvin" (the Kelvin sign) and "sun" matches "\u017Fun" (the
// long s). -F patterns are byte strings; with -i an ASCII one is found by
// an ASCII-folding search (unless the file holds one of those two runes)
// and others by the regexp engine.
//
// # Engines
//
// POSIX patterns (-G, -E) are rewritten to RE2 syntax with glibc's
// meaning (posixToRE2: x+? is (x+)?, {,n}, glibc's messages), Perl ones
// (-P) adjusted to what git's PCRE2 matches (pcreAsGit). Long searches run
// in RE2 itself (go-re2, 4–8× Go's regexp on patterns with no literal to
// look for), single lines in Go's regexp, which has the same semantics on
// valid UTF-8 (see regex). What RE2 cannot do (backreferences, lookaround,
// atomic groups, possessive repeats, \K at the top level, repeats over
// 1000) runs on a backtracking engine, line by line (see backtrack).
//
// The locale is git's: Options.ASCII is the C locale, where a pattern's
// bytes are characters, "." and classes match one byte (RE2's Latin-1
// mode) and -i folds ASCII letters only. In a UTF-8 locale POSIX classes
// and \w are Unicode's, as glibc's are, and so are word boundaries (see
// unicodeBounds), and -i folds as glibc does (see refold). Known differences from git grep -P in a UTF-8 locale: \s does
// not match the vertical tab; with -i, RE2 folds \w, \W and the POSIX
// classes ([[:alpha:]]) too, so they match the Kelvin sign and the long s,
// where PCRE's match ASCII only; -i with other non-ASCII may fold a few
// runes differently where Unicode's simple folding and PCRE's differ.
//
// # Trigram plan
//
// The index holds, per file, the set of its trigrams after Fold (ASCII
// upper case to lower case), plus those of a copy with the Kelvin sign and
// the long s replaced by k and s (see Trigrams). Query is a boolean formula
// over such trigrams that every file holding a match satisfies, built with
// codesearch's planner (index.RegexpQuery) on the rewritten pattern mapped
// to folded text. It is a necessary condition only: every candidate is
// verified with the Matcher. A pattern without a usable trigram (".",
// `\w+`, "ab") plans All, and every file is a candidate.
package exact
