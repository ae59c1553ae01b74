package gitgrep

import (
	"errors"
	"fmt"

	"github.com/bcindex/bcindex/exact"
)

// Options are git grep's options, read by Parse as git's
// parse-options reads them, plus bcindex's own.
type Options struct {
	cached, untracked, noIndex, recurseSubmodules bool
	excludeStandard                               int // -1 unset, else 0 or 1

	invert, ignoreCase, word bool
	binary                   int // binaryDefault, binaryText (-a), binaryNoMatch (-I)
	maxDepth                 int // -1: no limit
	syntax                   int // patternUnset, or a grep.patternType value below
	lineNumber, column       optBool
	pathname                 bool // false with -h
	fullName                 optBool
	nameOnly, unmatchName    bool
	null, onlyMatching       bool
	count                    bool
	color                    string // "" unset, else always, never or auto
	fileBreak, heading       bool
	before, after            int
	funcname, funcbody       bool
	tokens                   []exact.Token
	quiet, allMatch          bool
	maxCount                 int // -1: no limit
	pager                    *string
	patternFiles             []string // -f FILE, in order with tokens (see fileAt)

	// bcindex's own: revisions by ref selection, globs, output forms.
	refs                   []string
	allBranches, tags, all bool
	paths, excludes        []string
	json, vimgrep, stats   bool
	noUpdate               bool
	help                   bool
	shortHelp              bool // -h alone: the usage, exit 129 as git's

	args []string // what follows the options: pattern, revisions, "--", paths
}

// optBool is a boolean option that git config may default: set says
// whether the command line gave it.
type optBool struct{ set, on bool }

const (
	binaryDefault = iota
	binaryText
	binaryNoMatch
)

const (
	patternUnset = iota
	patternBRE
	patternERE
	patternFixed
	patternPCRE
)

// Usage is the usage line git grep prints with its refusals.
const Usage = "usage: git bcindex grep [<options>] [-e] <pattern> [<rev>...] [[--] <path>...]"

// UsageError is a command line git grep refuses: exit 129 with the
// message and the usage line.
type UsageError struct {
	msg string
	// OnStdout: the usage goes to standard output, the message alone to
	// standard error, as git does for an ambiguous option.
	OnStdout bool
}

func (e UsageError) Error() string { return e.msg }

// Fatal is an error git reports with "fatal:" and exit 128.
type Fatal struct{ Msg string }

func (e Fatal) Error() string { return e.Msg }

// ArgError is a command line bcindex's own options refuse (two output
// forms at once, a bad glob): not git's words, not git's exit code.
type ArgError struct{ msg string }

func (e ArgError) Error() string { return e.msg }

// ExitStatus is the exit status of the pager -O ran.
type ExitStatus int

func (e ExitStatus) Error() string { return fmt.Sprintf("exit status %d", int(e)) }

// ErrNoMatch is a search that selected nothing: exit 1, nothing printed.
var ErrNoMatch = errors.New("no match")

// Help reports whether the command line asks for help, and whether it
// was -h alone (git's usage, exit 129).
func (o *Options) Help() (help, short bool) { return o.help, o.shortHelp }
