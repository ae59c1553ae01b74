package main

import (
	"strings"
)

// `git bcindex log -S/-G` takes git log's arguments and answers as git log
// does: the index narrows the commits, git prints them. This file reads
// the arguments: what each option does to the walk, to the pickaxe and to
// the output, and which ones the index cannot narrow with, for which git
// answers alone.

// bcindexLogFlags are log's own options: with one of them, log -S/-G
// prints bcindex's view (the matching lines of each commit, --json).
var bcindexLogFlags = map[string]bool{
	"json": true, "first": true, "path": true, "ref": true, "no-index": true, "history": true,
	"k": true, "mode": true, "lang": true, "kind": true,
}

// gitLogCall is `git bcindex [--dir D] [--no-pager] [--color W] log ARGS`
// read as a git log call.
type gitLogCall struct {
	dir     string
	noPager bool
	color   string   // a global --color W, passed on as git log's --color=W
	args    []string // log's arguments, as given
}

// gitLogArgs reports whether args ask log for the pickaxe without any of
// bcindex's own log options: such a call is answered as git log answers it.
func gitLogArgs(args []string) (gitLogCall, bool) {
	var c gitLogCall
	i := 1
	for ; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--dir" && i+1 < len(args):
			c.dir = args[i+1]
			i++
		case strings.HasPrefix(a, "--dir="):
			c.dir = strings.TrimPrefix(a, "--dir=")
		case a == "--no-pager":
			c.noPager = true
		case (a == "--color" || a == "--colour") && i+1 < len(args):
			c.color = "--color=" + args[i+1] // bcindex's takes its value apart
			i++
		case strings.HasPrefix(a, "--color=") || strings.HasPrefix(a, "--colour="):
			_, v, _ := strings.Cut(a, "=")
			c.color = "--color=" + v
		case strings.HasPrefix(a, "-"):
			return c, false
		default:
			goto command
		}
	}
	return c, false
command:
	if args[i] != "log" {
		return c, false
	}
	c.args = args[i+1:]
	pickaxe := false
	for j := 0; j < len(c.args); j++ {
		a := c.args[j]
		if a == "--" {
			break
		}
		if a == "-S" || a == "-G" {
			pickaxe = true
			j++ // the pattern, even one spelt like an option
			continue
		}
		if strings.HasPrefix(a, "-S") || strings.HasPrefix(a, "-G") {
			pickaxe = true
			continue
		}
		if strings.HasPrefix(a, "--") {
			name, _, _ := strings.Cut(a[2:], "=")
			if bcindexLogFlags[name] {
				return c, false
			}
		} else if a == "-k" || strings.HasPrefix(a, "-k") && len(a) > 2 && a[2] >= '0' && a[2] <= '9' {
			return c, false
		}
		if takesGitValue(a) {
			j++
		}
	}
	return c, pickaxe
}

// optKind is what an option of git log does.
type optKind int

const (
	optUnknown optKind = iota // the index cannot narrow with it: git answers alone
	optPickaxe                // decides whether a commit matches (-S, -G, -i, diff settings)
	optWalk                   // selects and orders the commits walked (--all, --since, --author)
	optFormat                 // says how the commits are printed, no diff
	optDiff                   // prints a diff (its files are the pickaxe's unless --pickaxe-all)
	optBoth                   // walk and pickaxe: --first-parent, -i
	optMax                    // -n
	optReverse                // --reverse
)

// separateValue are the options of git log that take their value in the
// next argument when it is not attached.
var separateValue = map[string]bool{
	"-S": true, "-G": true, "-n": true, "--max-count": true, "--since": true, "--after": true,
	"--until": true, "--before": true, "--author": true, "--committer": true, "--grep": true,
	"--exclude": true, "-O": true, "--since-as-filter": true,
}

// takesGitValue reports whether a is an option whose value is the next argument.
func takesGitValue(a string) bool { return separateValue[a] }

// Options without a value, by kind.
var gitLogFlags = map[string]optKind{
	// the pickaxe and what changes its verdicts
	"--pickaxe-regex": optPickaxe, "--pickaxe-all": optPickaxe, "--text": optPickaxe, "-a": optPickaxe,
	"-w": optPickaxe, "--ignore-all-space": optPickaxe, "-b": optPickaxe, "--ignore-space-change": optPickaxe,
	"--ignore-space-at-eol": optPickaxe, "--ignore-blank-lines": optPickaxe, "--ignore-cr-at-eol": optPickaxe,
	"--no-renames": optPickaxe, "-M": optPickaxe, "--find-renames": optPickaxe, "-C": optPickaxe,
	"--find-copies": optPickaxe, "--find-copies-harder": optPickaxe, "-B": optPickaxe, "--break-rewrites": optPickaxe,
	"--textconv": optPickaxe, "--no-textconv": optPickaxe, "-R": optPickaxe, "--relative": optPickaxe,
	"--no-relative": optPickaxe, "--minimal": optPickaxe, "--patience": optPickaxe, "--histogram": optPickaxe,
	"--indent-heuristic": optPickaxe, "--no-indent-heuristic": optPickaxe, "--ignore-submodules": optPickaxe,
	"-i": optBoth, "--regexp-ignore-case": optBoth, "--first-parent": optBoth,
	// the walk
	"--all": optWalk, "--branches": optWalk, "--tags": optWalk, "--remotes": optWalk,
	"--no-merges": optWalk, "--merges": optWalk, "--date-order": optWalk, "--author-date-order": optWalk,
	"--topo-order": optWalk, "-E": optWalk, "--extended-regexp": optWalk, "-F": optWalk,
	"--fixed-strings": optWalk, "-P": optWalk, "--perl-regexp": optWalk, "--basic-regexp": optWalk,
	"--all-match": optWalk, "--invert-grep": optWalk,
	// the output
	"--oneline": optFormat, "--pretty": optFormat, "--abbrev-commit": optFormat, "--no-abbrev-commit": optFormat,
	"--no-abbrev": optFormat, "--decorate": optFormat, "--no-decorate": optFormat, "--color": optFormat,
	"--no-color": optFormat, "--relative-date": optFormat, "--no-patch": optFormat, "-s": optFormat,
	"--show-signature": optFormat, "--no-show-signature": optFormat, "--notes": optFormat, "--no-notes": optFormat,
	"--mailmap": optFormat, "--no-mailmap": optFormat, "--use-mailmap": optFormat, "--no-use-mailmap": optFormat,
	"--expand-tabs": optFormat, "--no-expand-tabs": optFormat, "--log-size": optFormat, "-z": optFormat,
	"-p": optDiff, "-u": optDiff, "--patch": optDiff, "--stat": optDiff, "--numstat": optDiff,
	"--shortstat": optDiff, "--name-only": optDiff, "--name-status": optDiff, "--raw": optDiff,
	"--summary": optDiff, "--patch-with-stat": optDiff, "--patch-with-raw": optDiff, "--compact-summary": optDiff,
	"--full-index": optDiff, "--binary": optDiff, "--full-diff": optDiff, "--no-prefix": optDiff,
	"--default-prefix": optDiff, "--color-words": optDiff, "--word-diff": optDiff, "-r": optDiff, "-t": optDiff,
	"--root": optDiff, "--no-ext-diff": optDiff, "--ext-diff": optDiff, "--dirstat": optDiff, "--cumulative": optDiff,
	"--check":   optDiff,
	"--reverse": optReverse,
}

// Options written --name=VALUE (or with an attached value), by prefix.
var gitLogValued = []struct {
	prefix string
	kind   optKind
}{
	{"--diff-algorithm=", optPickaxe}, {"--anchored=", optPickaxe}, {"--diff-filter=", optPickaxe},
	{"--find-renames=", optPickaxe}, {"--find-copies=", optPickaxe}, {"--break-rewrites=", optPickaxe},
	{"--relative=", optPickaxe}, {"--ignore-submodules=", optPickaxe}, {"-M", optPickaxe}, {"-C", optPickaxe},
	{"-B", optPickaxe},
	{"--since=", optWalk}, {"--after=", optWalk}, {"--until=", optWalk}, {"--before=", optWalk},
	{"--author=", optWalk}, {"--committer=", optWalk}, {"--grep=", optWalk}, {"--exclude=", optWalk},
	{"--branches=", optWalk}, {"--tags=", optWalk}, {"--remotes=", optWalk}, {"--glob=", optWalk},
	{"--min-parents=", optWalk}, {"--max-parents=", optWalk}, {"--since-as-filter=", optWalk},
	{"--format=", optFormat}, {"--pretty=", optFormat}, {"--abbrev=", optFormat}, {"--decorate=", optFormat},
	{"--color=", optFormat}, {"--date=", optFormat}, {"--notes=", optFormat}, {"--expand-tabs=", optFormat},
	{"--encoding=", optFormat}, {"--decorate-refs=", optFormat}, {"--decorate-refs-exclude=", optFormat},
	{"--stat=", optDiff}, {"--stat-width=", optDiff}, {"--stat-name-width=", optDiff}, {"--stat-count=", optDiff},
	{"--stat-graph-width=", optDiff}, {"--unified=", optDiff}, {"-U", optDiff}, {"--inter-hunk-context=", optDiff},
	{"--word-diff=", optDiff}, {"--color-words=", optDiff}, {"--src-prefix=", optDiff}, {"--dst-prefix=", optDiff},
	{"--line-prefix=", optDiff}, {"--dirstat=", optDiff}, {"--submodule=", optDiff}, {"--ws-error-highlight=", optDiff},
	{"--color-moved=", optDiff}, {"--output-indicator-new=", optDiff}, {"--output-indicator-old=", optDiff},
	{"--output-indicator-context=", optDiff}, {"-O", optDiff},
	{"--max-count=", optMax},
}

// classify says what one option does; n is how many arguments it takes
// (2 when its value is the next one).
func classify(a string) (kind optKind, n int) {
	if k, ok := gitLogFlags[a]; ok {
		return k, 1
	}
	switch {
	case a == "-S" || a == "-G":
		return optPickaxe, 2
	case strings.HasPrefix(a, "-S") || strings.HasPrefix(a, "-G"):
		return optPickaxe, 1
	case a == "-n" || a == "--max-count":
		return optMax, 2
	case strings.HasPrefix(a, "-n") && allDigits(a[2:]), len(a) > 1 && a[0] == '-' && allDigits(a[1:]):
		return optMax, 1
	case a == "-O":
		return optDiff, 2
	case separateValue[a]:
		return optWalk, 2 // --since DATE, --author NAME, ...
	}
	for _, v := range gitLogValued {
		if strings.HasPrefix(a, v.prefix) && len(a) > len(v.prefix) {
			if (v.prefix == "-M" || v.prefix == "-C" || v.prefix == "-B" || v.prefix == "-U") && !allDigits(strings.TrimSuffix(a[2:], "%")) {
				break
			}
			return v.kind, 1
		}
	}
	return optUnknown, 1
}

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
