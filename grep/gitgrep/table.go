package gitgrep

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/bcindex/bcindex/exact"
)

const (
	argNone = iota
	argRequired
	argOptional
)

// grepOption is one option of the table, in git's order: the order
// decides which abbreviation is ambiguous and which short option wins.
type grepOption struct {
	short  byte
	long   string
	arg    int
	noneg  bool
	nodash bool // "(" and ")": the whole argument is the option
	own    bool // bcindex's: matched only when spelt in full
	set    func(o *Options, unset bool, val string) error
}

func boolOpt(short byte, long string, f func(o *Options) *bool) grepOption {
	return grepOption{short: short, long: long, set: func(o *Options, unset bool, _ string) error {
		*f(o) = !unset
		return nil
	}}
}

func optBoolOpt(short byte, long string, f func(o *Options) *optBool) grepOption {
	return grepOption{short: short, long: long, set: func(o *Options, unset bool, _ string) error {
		*f(o) = optBool{set: true, on: !unset}
		return nil
	}}
}

func setIntOpt(short byte, long string, f func(o *Options) *int, v int) grepOption {
	return grepOption{short: short, long: long, set: func(o *Options, unset bool, _ string) error {
		*f(o) = v
		if unset {
			*f(o) = 0
		}
		return nil
	}}
}

func intOpt(short byte, long string, noneg bool, f func(o *Options) *int) grepOption {
	return grepOption{short: short, long: long, arg: argRequired, noneg: noneg, set: func(o *Options, unset bool, val string) error {
		if unset {
			*f(o) = 0
			return nil
		}
		n, err := strconv.Atoi(val)
		if err != nil {
			return fmt.Errorf("%s expects a numerical value", optName(short, long))
		}
		*f(o) = n
		return nil
	}}
}

func tokenOpt(short byte, long string, kind exact.TokenKind) grepOption {
	return grepOption{short: short, long: long, noneg: true, nodash: long == "", set: func(o *Options, _ bool, _ string) error {
		o.tokens = append(o.tokens, exact.Token{Kind: kind})
		return nil
	}}
}

func optName(short byte, long string) string {
	if long != "" {
		return "option `" + long + "'"
	}
	return "switch `" + string(short) + "'"
}

func contextValue(o *Options, unset bool, val string, short byte) error {
	if unset {
		o.before, o.after = 0, 0
		return nil
	}
	n, err := strconv.Atoi(val)
	if err != nil || strings.HasPrefix(val, "+") {
		return fmt.Errorf("switch `%c' expects a numerical value", short)
	}
	o.before, o.after = n, n
	return nil
}

// grepOptionTable is git grep's option table (builtin/grep.c) followed by
// bcindex's own options.
var grepOptionTable = []grepOption{
	boolOpt(0, "cached", func(o *Options) *bool { return &o.cached }),
	{long: "no-index", set: func(o *Options, unset bool, _ string) error { o.noIndex = !unset; return nil }},
	boolOpt(0, "untracked", func(o *Options) *bool { return &o.untracked }),
	setIntOpt(0, "exclude-standard", func(o *Options) *int { return &o.excludeStandard }, 1),
	boolOpt(0, "recurse-submodules", func(o *Options) *bool { return &o.recurseSubmodules }),
	boolOpt('v', "invert-match", func(o *Options) *bool { return &o.invert }),
	boolOpt('i', "ignore-case", func(o *Options) *bool { return &o.ignoreCase }),
	boolOpt('w', "word-regexp", func(o *Options) *bool { return &o.word }),
	setIntOpt('a', "text", func(o *Options) *int { return &o.binary }, binaryText),
	setIntOpt('I', "", func(o *Options) *int { return &o.binary }, binaryNoMatch),
	{long: "textconv", set: func(*Options, bool, string) error { return nil }},
	setIntOpt('r', "recursive", func(o *Options) *int { return &o.maxDepth }, -1),
	intOpt(0, "max-depth", true, func(o *Options) *int { return &o.maxDepth }),
	setIntOpt('E', "extended-regexp", func(o *Options) *int { return &o.syntax }, patternERE),
	setIntOpt('G', "basic-regexp", func(o *Options) *int { return &o.syntax }, patternBRE),
	setIntOpt('F', "fixed-strings", func(o *Options) *int { return &o.syntax }, patternFixed),
	setIntOpt('P', "perl-regexp", func(o *Options) *int { return &o.syntax }, patternPCRE),
	optBoolOpt('n', "line-number", func(o *Options) *optBool { return &o.lineNumber }),
	optBoolOpt(0, "column", func(o *Options) *optBool { return &o.column }),
	{short: 'h', set: func(o *Options, unset bool, _ string) error { o.pathname = unset; return nil }},
	{short: 'H', set: func(o *Options, unset bool, _ string) error { o.pathname = !unset; return nil }},
	optBoolOpt(0, "full-name", func(o *Options) *optBool { return &o.fullName }),
	boolOpt('l', "files-with-matches", func(o *Options) *bool { return &o.nameOnly }),
	boolOpt(0, "name-only", func(o *Options) *bool { return &o.nameOnly }),
	boolOpt('L', "files-without-match", func(o *Options) *bool { return &o.unmatchName }),
	boolOpt('z', "null", func(o *Options) *bool { return &o.null }),
	boolOpt('o', "only-matching", func(o *Options) *bool { return &o.onlyMatching }),
	boolOpt('c', "count", func(o *Options) *bool { return &o.count }),
	{long: "color", arg: argOptional, set: func(o *Options, unset bool, val string) error {
		switch {
		case unset:
			o.color = "never"
		case val == "":
			o.color = "always"
		default:
			w := strings.ToLower(val)
			if w != "always" && w != "never" && w != "auto" {
				return fmt.Errorf("option `color' expects \"always\", \"auto\", or \"never\"")
			}
			o.color = w
		}
		return nil
	}},
	boolOpt(0, "break", func(o *Options) *bool { return &o.fileBreak }),
	boolOpt(0, "heading", func(o *Options) *bool { return &o.heading }),
	{short: 'C', long: "context", arg: argRequired, set: func(o *Options, unset bool, val string) error {
		return contextValue(o, unset, val, 'C')
	}},
	intOpt('B', "before-context", false, func(o *Options) *int { return &o.before }),
	intOpt('A', "after-context", false, func(o *Options) *int { return &o.after }),
	intOpt(0, "threads", false, func(o *Options) *int { n := 0; return &n }),
	boolOpt('p', "show-function", func(o *Options) *bool { return &o.funcname }),
	boolOpt('W', "function-context", func(o *Options) *bool { return &o.funcbody }),
	{short: 'f', arg: argRequired, set: func(o *Options, _ bool, val string) error {
		o.patternFiles = append(o.patternFiles, val)
		// A placeholder token, replaced by the file's lines once the
		// repository's top is known (git reads -f there).
		o.tokens = append(o.tokens, exact.Token{Kind: tokPatternFile, Pattern: val})
		return nil
	}},
	{short: 'e', arg: argRequired, noneg: true, set: func(o *Options, _ bool, val string) error {
		o.tokens = append(o.tokens, exact.Token{Kind: exact.TokPattern, Pattern: val, Origin: "-e option"})
		return nil
	}},
	tokenOpt(0, "and", exact.TokAnd),
	{long: "or", set: func(*Options, bool, string) error { return nil }},
	tokenOpt(0, "not", exact.TokNot),
	tokenOpt('(', "", exact.TokOpen),
	tokenOpt(')', "", exact.TokClose),
	{short: 'q', long: "quiet", set: func(o *Options, unset bool, _ string) error { o.quiet = !unset; return nil }},
	boolOpt(0, "all-match", func(o *Options) *bool { return &o.allMatch }),
	{short: 'O', long: "open-files-in-pager", arg: argOptional, set: func(o *Options, unset bool, val string) error {
		if unset {
			o.pager = nil
		} else {
			o.pager = &val
		}
		return nil
	}},
	{long: "ext-grep", set: func(*Options, bool, string) error { return nil }},
	intOpt('m', "max-count", false, func(o *Options) *int { return &o.maxCount }),

	{long: "ref", arg: argRequired, noneg: true, own: true, set: func(o *Options, _ bool, v string) error { o.refs = append(o.refs, v); return nil }},
	boolOwn("all-branches", func(o *Options) *bool { return &o.allBranches }),
	boolOwn("tags", func(o *Options) *bool { return &o.tags }),
	boolOwn("all", func(o *Options) *bool { return &o.all }),
	{long: "path", arg: argRequired, noneg: true, own: true, set: func(o *Options, _ bool, v string) error { o.paths = append(o.paths, v); return nil }},
	{long: "exclude", arg: argRequired, noneg: true, own: true, set: func(o *Options, _ bool, v string) error { o.excludes = append(o.excludes, v); return nil }},
	boolOwn("json", func(o *Options) *bool { return &o.json }),
	boolOwn("vimgrep", func(o *Options) *bool { return &o.vimgrep }),
	boolOwn("stats", func(o *Options) *bool { return &o.stats }),
	boolOwn("no-update", func(o *Options) *bool { return &o.noUpdate }),
	boolOwn("help", func(o *Options) *bool { return &o.help }),
}

// tokPatternFile marks where -f FILE's patterns go among the tokens.
const tokPatternFile exact.TokenKind = -1

func boolOwn(long string, f func(o *Options) *bool) grepOption {
	o := boolOpt(0, long, f)
	o.own, o.noneg = true, true
	return o
}
