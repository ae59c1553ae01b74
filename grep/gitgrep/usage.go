package gitgrep

// Flag is an option of git grep, for help and the man page.
type Flag struct {
	Short      byte   // 0 when it has no one-letter name
	Long       string // "" when it has only the letter
	TakesValue bool
	Usage      string
}

// Flags lists git grep's options that help describes, in git's order;
// Parse reads them.
func Flags() []Flag {
	var out []Flag
	for _, opt := range grepOptionTable {
		key := opt.long
		if key == "" {
			key = string(opt.short)
		}
		usage := grepOptionUsage[key]
		if opt.nodash || usage == "" {
			continue
		}
		out = append(out, Flag{Short: opt.short, Long: opt.long, TakesValue: opt.arg != argNone, Usage: usage})
	}
	return out
}

// grepOptionUsage is each option's help, git's own where git has it.
var grepOptionUsage = map[string]string{
	"cached":              "search the index (the staged files) instead of the working tree",
	"no-index":            "search the files of the current directory, in a repository or not, as plain files",
	"untracked":           "search untracked files too (not ignored ones, unless --no-exclude-standard)",
	"exclude-standard":    "leave out files ignored by .gitignore (with --untracked or --no-index)",
	"recurse-submodules":  "not supported: submodules' contents are not in this repository's objects",
	"invert-match":        "select the lines that do not match",
	"ignore-case":         "match letters of either case",
	"word-regexp":         "match only whole words (git's rule: not preceded or followed by [A-Za-z0-9_])",
	"text":                "read binary files as text",
	"I":                   "pass over binary files",
	"textconv":            "accepted for git's habit; no textconv filter is run",
	"recursive":           "search subdirectories (the default; undoes --max-depth)",
	"max-depth":           "descend at most `DEPTH` directories below each pathspec",
	"extended-regexp":     "patterns are POSIX extended regular expressions",
	"basic-regexp":        "patterns are POSIX basic regular expressions (the default)",
	"fixed-strings":       "patterns are fixed strings",
	"perl-regexp":         "patterns are Perl regular expressions, as RE2 reads them (no backreferences or lookaround)",
	"line-number":         "print line numbers (default from grep.lineNumber)",
	"column":              "print the column of the first match (default from grep.column)",
	"h":                   "do not print file names",
	"H":                   "print file names (the default)",
	"full-name":           "print paths from the top of the working tree, not from the current directory",
	"files-with-matches":  "print only the names of files with a match",
	"name-only":           "the same as --files-with-matches",
	"files-without-match": "print only the names of files without a match",
	"null":                "end file names with a NUL byte, unquoted",
	"only-matching":       "print only the matching part of each line, one match a line",
	"count":               "print each file's number of matching lines",
	"color":               "colour matches: `WHEN` is always (the default without a value), never or auto",
	"break":               "print an empty line between files",
	"heading":             "print each file's name once, on a line above its matches",
	"context":             "print `N` lines before and after each match (also -NUM)",
	"before-context":      "print `N` lines before each match",
	"after-context":       "print `N` lines after each match",
	"threads":             "accepted for git's habit; the search uses every core",
	"show-function":       "print the line of the function holding each match",
	"function-context":    "print the whole function holding each match",
	"f":                   "read patterns from `FILE`, one a line (- for standard input)",
	"e":                   "match `PATTERN` (repeatable; it may start with '-')",
	"and":                 "combine patterns: both must match the line; --or, --not and ( ) too",
	"quiet":               "print nothing; exit 0 on a match",
	"all-match":           "with several patterns, select files where each matches some line",
	"open-files-in-pager": "open the matching files in `PAGER` (default: the pager)",
	"max-count":           "stop reading a file after `N` matching lines",
	"ref":                 "search revision `REV` too, or the refs a glob names ('release/*'); repeatable: each file is printed once, after the revisions holding it",
	"all-branches":        "search every local and remote-tracking branch (as --ref)",
	"tags":                "search every tag (as --ref)",
	"all":                 "search every ref (as --ref)",
	"path":                "only files matching `GLOB` ('pkg/**/*.go', '*.py'); '!GLOB' leaves them out (repeatable)",
	"exclude":             "leave out files matching `GLOB` (repeatable)",
	"json":                "print JSON Lines: one object per matching line (see the man page for the fields)",
	"vimgrep":             "print path:line:column:text per match, for editors' quickfix lists",
	"stats":               "print to stderr how the index answered: files, distinct blobs, blobs read",
	"no-update":           "do not index missing blobs first; the answer is still complete (unindexed blobs are read)",
}
