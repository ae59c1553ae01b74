package gitgrep

import (
	"fmt"
	"strings"
)

// Parse reads the options of args (what follows "grep") as git's
// parse-options does for git grep: short options bundle (-inw, -A3, -e
// PATTERN with the pattern in the next argument whatever it starts
// with), long ones may be abbreviated to a unique prefix and negated with
// --no-, -NUM is -C NUM, "(" and ")" are options, and parsing stops at
// the first argument that is not an option or at "--", which is kept.
// bcindex's own long options are matched only when spelt in full.
func Parse(args []string) (*Options, error) {
	o := &Options{excludeStandard: -1, maxDepth: -1, pathname: true, maxCount: -1}
	for i := 0; i < len(args); i++ {
		arg := args[i]
		next := func() (string, bool) {
			if i+1 < len(args) {
				i++
				return args[i], true
			}
			return "", false
		}
		if arg == "" || arg[0] != '-' || arg == "-" {
			if opt := nodashOption(arg); opt != nil {
				if err := opt.set(o, false, ""); err != nil {
					return nil, UsageError{msg: err.Error()}
				}
				continue
			}
			o.args = args[i:]
			return o, nil
		}
		if len(args) == 1 && arg == "-h" {
			o.help, o.shortHelp = true, true
			return o, nil
		}
		if arg == "--" || arg == "--end-of-options" {
			o.args = args[i:]
			if arg != "--" {
				o.args = args[i+1:]
			}
			return o, nil
		}
		if strings.HasPrefix(arg, "--") {
			if err := parseLong(o, arg[2:], next); err != nil {
				return nil, err
			}
			continue
		}
		if err := parseShorts(o, arg[1:], next); err != nil {
			return nil, err
		}
	}
	return o, nil
}

func nodashOption(arg string) *grepOption {
	for i := range grepOptionTable {
		opt := &grepOptionTable[i]
		if opt.nodash && len(arg) == 1 && arg[0] == opt.short {
			return opt
		}
	}
	return nil
}

// parseShorts reads a bundle of short options (what follows '-').
func parseShorts(o *Options, bundle string, next func() (string, bool)) error {
	whole, first := bundle, true
	for bundle != "" {
		opt := shortOption(bundle[0])
		if opt == nil {
			if n := digits(bundle); n > 0 {
				if err := contextValue(o, false, bundle[:n], 'C'); err != nil {
					return UsageError{msg: err.Error()}
				}
				bundle = bundle[n:]
				first = false
				continue
			}
			if first {
				if err := checkTypos(whole); err != nil {
					return err
				}
			}
			return UsageError{msg: fmt.Sprintf("unknown switch `%c'", bundle[0])}
		}
		rest := bundle[1:]
		val := ""
		switch opt.arg {
		case argRequired:
			if rest != "" {
				val, rest = rest, ""
			} else if v, ok := next(); ok {
				val = v
			} else {
				return UsageError{msg: fmt.Sprintf("switch `%c' requires a value", opt.short)}
			}
		case argOptional:
			val, rest = rest, ""
		}
		if err := opt.set(o, false, val); err != nil {
			// An option given by its letter is a switch in git's words.
			msg := strings.Replace(err.Error(), "option `"+opt.long+"'", "switch `"+string(opt.short)+"'", 1)
			return UsageError{msg: msg}
		}
		if first && rest != "" {
			if err := checkTypos(whole); err != nil {
				return err
			}
		}
		first = false
		bundle = rest
	}
	return nil
}

// checkTypos is git's guard against a long option typed with one dash
// (-cached): the bundle after the first letter must not start a long
// option's name.
func checkTypos(arg string) error {
	if len(arg) < 3 {
		return nil
	}
	if strings.HasPrefix(arg, "no-") {
		return UsageError{msg: fmt.Sprintf("did you mean `--%s` (with two dashes)?", arg)}
	}
	for _, opt := range grepOptionTable {
		if opt.long != "" && !opt.own && strings.HasPrefix(opt.long, arg) {
			return UsageError{msg: fmt.Sprintf("did you mean `--%s` (with two dashes)?", arg)}
		}
	}
	return nil
}

func digits(s string) int {
	n := 0
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	return n
}

func shortOption(c byte) *grepOption {
	for i := range grepOptionTable {
		if opt := &grepOptionTable[i]; opt.short == c && !opt.nodash {
			return opt
		}
	}
	return nil
}

// parseLong reads --name, --name=value, --no-name and their unique
// abbreviations, as parse_long_opt does.
func parseLong(o *Options, arg string, next func() (string, bool)) error {
	name, value, hasValue := strings.Cut(arg, "=")
	var abbrev, ambiguous *grepOption
	abbrevUnset, ambiguousUnset := false, false
	for i := range grepOptionTable {
		opt := &grepOptionTable[i]
		if opt.long == "" {
			continue
		}
		if opt.own {
			if name == opt.long {
				return applyLong(o, opt, false, value, hasValue, next)
			}
			continue
		}
		long, optUnset := opt.long, false
	again:
		if name == long {
			return applyLong(o, opt, optUnset, value, hasValue, next)
		}
		unset := false
		abbreviated := false
		switch {
		case strings.HasPrefix(long, name):
			abbreviated = true
		case opt.noneg:
		case strings.HasPrefix("no-", name):
			unset, abbreviated = true, true
		case !strings.HasPrefix(name, "no-"):
			if l, ok := strings.CutPrefix(long, "no-"); ok {
				long, optUnset = l, true
				goto again
			}
		default:
			unset = true
			if name[3:] == long {
				return applyLong(o, opt, unset != optUnset, value, hasValue, next)
			}
			abbreviated = strings.HasPrefix(long, name[3:])
		}
		if !abbreviated {
			continue
		}
		if abbrev != nil {
			ambiguous, ambiguousUnset = abbrev, abbrevUnset
		}
		abbrev, abbrevUnset = opt, unset != optUnset
	}
	if ambiguous != nil {
		no := func(b bool) string {
			if b {
				return "no-"
			}
			return ""
		}
		return UsageError{msg: fmt.Sprintf("ambiguous option: %s (could be --%s%s or --%s%s)", name, no(ambiguousUnset), ambiguous.long, no(abbrevUnset), abbrev.long), OnStdout: true}
	}
	if abbrev != nil {
		return applyLong(o, abbrev, abbrevUnset, value, hasValue, next)
	}
	return UsageError{msg: fmt.Sprintf("unknown option `%s'", name)}
}

func applyLong(o *Options, opt *grepOption, unset bool, value string, hasValue bool, next func() (string, bool)) error {
	switch {
	case unset && hasValue:
		return UsageError{msg: fmt.Sprintf("option `no-%s' takes no value", opt.long)}
	case unset && opt.noneg:
		return UsageError{msg: fmt.Sprintf("option `no-%s' isn't available", opt.long)}
	case opt.arg == argNone && hasValue:
		return UsageError{msg: fmt.Sprintf("option `%s' takes no value", opt.long)}
	case opt.arg == argRequired && !hasValue && !unset:
		v, ok := next()
		if !ok {
			return UsageError{msg: fmt.Sprintf("option `%s' requires a value", opt.long)}
		}
		value = v
	}
	if err := opt.set(o, unset, value); err != nil {
		return UsageError{msg: err.Error()}
	}
	return nil
}
