package main

import (
	"strconv"
	"strings"
)

// logPlan is a git log -S/-G call taken apart: the options of the walk,
// of the pickaxe and of the output, in the order given.
type logPlan struct {
	walk  []string // select and order the commits: the walk's call
	pick  []string // decide which commits match: the verifying call
	final []planArg
	revs  []string
	paths []string
	// dashdash says the paths came after "--"; positional arguments
	// before it are revisions (checked when there is no "--").
	dashdash bool

	pattern     string
	grep        bool // -G; else -S
	regex       bool // -G, or -S --pickaxe-regex
	fold        bool // -i
	text        bool // --text: -G reads binary files too
	firstParent bool
	diffOut     bool // the output holds a diff, which the pickaxe limits to its files
	tweaks      bool // diff settings that change the pickaxe's verdicts: git decides them
	hasMax      bool
	max         int // with hasMax: at most this many commits
	reverse     bool
}

// planArg is one argument of the printing call, with its kind.
type planArg struct {
	arg  string
	kind optKind
}

// planLog takes args (log's, as given) apart; ok is false when an option
// is one the index cannot narrow with, and git answers alone.
func planLog(args []string) (p logPlan, ok bool) {
	seenS, seenG := false, false
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			p.dashdash = true
			p.paths = append(p.paths, args[i+1:]...)
			break
		}
		if a == "-" || !strings.HasPrefix(a, "-") {
			p.revs = append(p.revs, a)
			continue
		}
		kind, n := classify(a)
		if kind == optUnknown || i+n > len(args) {
			return p, false
		}
		val := ""
		if n == 2 {
			val = args[i+1]
		}
		group := []string{a}
		if n == 2 {
			group = append(group, val)
		}
		i += n - 1
		switch {
		case a == "-S" || a == "-G" || strings.HasPrefix(a, "-S") || strings.HasPrefix(a, "-G"):
			if n == 1 {
				val = a[2:]
			}
			p.pattern, p.grep = val, a[1] == 'G'
			if p.grep {
				seenG = true
			} else {
				seenS = true
			}
		case a == "--pickaxe-regex":
			p.regex = true
		case a == "-i" || a == "--regexp-ignore-case":
			p.fold = true
		case a == "--first-parent":
			p.firstParent = true
		case a == "--text" || a == "-a":
			p.text = true
		case a == "--pickaxe-all":
		case kind == optPickaxe:
			p.tweaks = true
		case kind == optDiff:
			p.diffOut = true
		case kind == optMax:
			n, ok := maxCount(a, val)
			if !ok {
				return p, false // git says what is wrong with it
			}
			p.hasMax, p.max = n >= 0, n
			continue // applied to the list: git's -n walks even with --no-walk
		case kind == optReverse:
			p.reverse = true
		}
		switch kind {
		case optWalk:
			p.walk = append(p.walk, group...)
		case optBoth:
			p.walk = append(p.walk, group...)
			p.pick = append(p.pick, group...)
			p.final = append(p.final, planArg{a, optBoth})
		case optPickaxe:
			p.pick = append(p.pick, group...)
			for _, g := range group {
				p.final = append(p.final, planArg{g, optPickaxe})
			}
		default:
			for _, g := range group {
				p.final = append(p.final, planArg{g, kind})
			}
		}
	}
	if p.grep {
		p.regex = true
	}
	// Both -S and -G is git's error; an empty pattern is git's to read;
	// --reverse with -n counts before the pickaxe in git, after in a
	// list of matches.
	if seenS == seenG || p.pattern == "" || (p.reverse && p.hasMax) {
		return p, false
	}
	return p, true
}

// maxCount reads -n's value from a (-n5, -5, --max-count=5) or val (the
// next argument); a negative count is no limit, as in git.
func maxCount(a, val string) (int, bool) {
	switch {
	case a == "-n" || a == "--max-count":
	case strings.HasPrefix(a, "--max-count="):
		val = strings.TrimPrefix(a, "--max-count=")
	case strings.HasPrefix(a, "-n"):
		val = a[2:]
	default:
		val = a[1:]
	}
	n, err := strconv.Atoi(val)
	return n, err == nil
}

// finalArgs are the options of the call that prints the commits: with
// the pickaxe's options when the output holds diffs (which show the
// matching files only) or when pickaxe is set, else without, the commits
// being already the matching ones.
func (p *logPlan) finalArgs(pickaxe bool) []string {
	var out []string
	for _, a := range p.final {
		if (a.kind == optPickaxe || a.arg == "-i" || a.arg == "--regexp-ignore-case") && !pickaxe {
			continue
		}
		out = append(out, a.arg)
	}
	return out
}
