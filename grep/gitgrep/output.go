package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"unicode/utf8"

	"github.com/go-git/go-git/v5/config"
	"github.com/urfave/cli/v2"

	"github.com/bcindex/bcindex/exact"
	"github.com/bcindex/bcindex/grep"
	"github.com/bcindex/bcindex/pathspec"
)

// renderer sets up the printing of a search over sources.
func (g *grepRun) renderer(prog *exact.Program, sources []grep.Source) (*grepRender, error) {
	o := g.o
	if o.json && o.vimgrep {
		return nil, usageError{"--json and --vimgrep do not combine: pick one"}
	}
	r := &grepRender{
		prog: prog, lineNumber: o.lineNumber.on, column: o.column.on, pathname: o.pathname, null: o.null,
		heading: o.heading, fileBreak: o.fileBreak, onlyMatching: o.onlyMatching,
		before: max(o.before, 0), after: max(o.after, 0), funcname: o.funcname, funcbody: o.funcbody,
		count: o.count, nameOnly: o.nameOnly, unmatchName: o.unmatchName, quiet: o.quiet,
		invert: o.invert, json: o.json, vimgrep: o.vimgrep, colors: defaultGrepColors,
	}
	relative := !o.fullName.on && g.prefix != ""
	r.name = func(f *grep.File) string {
		name, tl := blobSourceName(sources[f.Source], f.Path)
		switch {
		case o.null && relative:
			return name[:tl] + pathspec.Relative(name[tl:], g.prefix)
		case o.null:
			return name
		case relative:
			return name[:tl] + quotePath(pathspec.Relative(name[tl:], g.prefix))
		}
		return name[:tl] + quotePath(name[tl:])
	}
	r.jsonFile = func(f *grep.File, lines []exact.Line, spans func(exact.Line) [][2]int) []byte {
		return grepJSONLines(f, sources[f.Source], o, lines, spans)
	}
	return r, nil
}

// output decides colour (--color, color.grep, color.ui, git's slots) and
// starts the pager.
func (g *grepRun) output(r *grepRender) (*output, error) {
	c, o := g.c, g.o
	var cfg *config.Config
	if g.repo != nil {
		cfg = gitConfig(g.repo)
	}
	when := o.color
	if when == "" {
		if v, ok := globalString(c, "color"); ok {
			when = v
		} else if cfg != nil {
			for _, key := range []string{"grep", "ui"} {
				if v := cfg.Raw.Section("color").Option(key); v != "" {
					when = configColor(v)
					break
				}
			}
		}
	}
	if when == "" {
		when = "auto"
	}
	stdout := c.App.Writer
	out := &output{w: stdout, close: func() error { return nil }}
	if r != nil {
		r.color = wantColor(when, stdout) && !r.json
		if cfg != nil {
			sub := cfg.Raw.Section("color").Subsection("grep")
			for i, name := range slotNames {
				if v := sub.Option(name); v != "" {
					r.colors[i] = parseColor(v)
				}
			}
			if v := sub.Option("match"); v != "" {
				r.colors[slotMatchContext], r.colors[slotMatchSelected] = parseColor(v), parseColor(v)
			}
		}
	} else {
		out.paint = newColorizer(wantColor(when, stdout), nil)
		out.paint.null = o.null
	}
	if globalBool(c, "no-pager") || !isTerminal(stdout) {
		return out, nil
	}
	pager := pagerCommand(cfg)
	if pager == "" {
		return out, nil
	}
	cmd := exec.Command("sh", "-c", pager)
	cmd.Stdout, cmd.Stderr = stdout, c.App.ErrWriter
	cmd.Env = pagerEnv(os.Environ())
	in, err := cmd.StdinPipe()
	if err != nil {
		return out, nil
	}
	if err := cmd.Start(); err != nil {
		fmt.Fprintf(c.App.ErrWriter, "warning: pager %q did not start (%v); printing without it\n", pager, err)
		return out, nil
	}
	out.w = in
	out.close = func() error {
		in.Close()
		cmd.Wait() // the pager's exit status (q before the end) is not an error
		return nil
	}
	return out, nil
}

// configColor reads color.grep or color.ui as git_config_colorbool does:
// a true value means auto.
func configColor(v string) string {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "always":
		return "always"
	case "never", "false", "no", "off", "0":
		return "never"
	}
	return "auto"
}

// pipeErr turns a write to a reader that went away into errPipeClosed.
func pipeErr(err error) error {
	if errors.Is(err, syscall.EPIPE) {
		return errPipeClosed
	}
	return err
}

// openInPager is -O: the names of the matching files, relative to the
// current directory, given to the pager (for less and vi, with a search
// for the pattern), run there.
func (g *grepRun) openInPager(sources []grep.Source, ps *pathspec.Set, prog *exact.Program) error {
	pager := *g.o.pager
	if pager == "" {
		pager = pagerCommand(gitConfig(g.repo))
		if pager == "" {
			pager = "less"
		}
	}
	var names []string
	opts := grep.Options{Sources: sources, Program: prog, Pathspec: ps, FirstOnly: true, Binary: grep.BinaryMatch}
	v, err := g.view(sources, true)
	if err != nil {
		return err
	}
	defer v.Close()
	st, err := grep.Grep(g.c.Context, v, opts, func(f *grep.File) error {
		names = append(names, pathspec.Relative(f.Path, g.prefix))
		return nil
	})
	if err != nil {
		return err
	}
	if st.Matched == 0 {
		return errNoResults
	}
	args := []string{}
	base := filepath.Base(pager)
	if len(g.o.tokens) == 1 && (base == "less" || base == "vi") {
		if g.o.ignoreCase && base == "less" {
			args = append(args, "-I")
		}
		star := ""
		if base == "less" {
			star = "*"
		}
		args = append(args, "+/"+star+g.o.tokens[0].Pattern)
	}
	cmd := exec.Command("sh", "-c", pager+` "$@"`, pager)
	cmd.Args = append(cmd.Args, append(args, names...)...)
	cmd.Dir = filepath.Join(g.top, filepath.FromSlash(g.prefix))
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, g.c.App.Writer, g.c.App.ErrWriter
	if err := cmd.Run(); err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return exitStatus(ee.ExitCode())
		}
		return err
	}
	return nil
}

// grepSourceJSON is one line of grep --json over sources.
type grepSourceJSON struct {
	Path      string      `json:"path"`
	PathBytes []byte      `json:"path_bytes,omitempty"`
	Line      int         `json:"line,omitempty"`
	Text      *string     `json:"text,omitempty"`
	TextBytes []byte      `json:"text_bytes,omitempty"`
	Spans     [][2]int    `json:"spans,omitempty"`
	Count     *int        `json:"count,omitempty"`
	Before    []jsonLine  `json:"before,omitempty"`
	After     []jsonLine  `json:"after,omitempty"`
	Binary    bool        `json:"binary,omitempty"`
	Blob      string      `json:"blob,omitempty"`
	Refs      []grepRefJS `json:"refs"`
}

// grepJSONLines renders a file as JSON Lines: one object per selected
// line (or one per file with -c, -l, -L, or a binary file).
func grepJSONLines(f *grep.File, src grep.Source, o *grepOpts, lines []exact.Line, spans func(exact.Line) [][2]int) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	base := grepSourceJSON{Path: f.Path, Refs: []grepRefJS{}, Binary: f.Binary}
	if !src.Blob.IsZero() {
		base.Path = src.Name
	}
	if !utf8.ValidString(base.Path) {
		base.PathBytes = []byte(base.Path)
	}
	if !f.Blob.IsZero() {
		base.Blob = f.Blob.String()
	}
	if src.Name != "" {
		base.Refs = append(base.Refs, grepRefJS{Name: strings.TrimSuffix(src.Name, ":"), Commit: commitOf(src).String()})
	}
	switch {
	case o.nameOnly || o.unmatchName || f.Binary:
		enc.Encode(base)
		return buf.Bytes()
	case o.count:
		n := len(lines)
		base.Count = &n
		enc.Encode(base)
		return buf.Bytes()
	}
	starts := lineStarts(f.Content, max(o.before, 0), max(o.after, 0), lines)
	for _, l := range lines {
		rec := base
		text := f.Content[l.Start:l.End]
		if utf8.Valid(text) {
			s := string(text)
			rec.Text = &s
		} else {
			rec.TextBytes = text
		}
		rec.Line, rec.Spans = l.Number, spans(l)
		for n := max(1, l.Number-o.before); n < l.Number; n++ {
			rec.Before = append(rec.Before, jsonLine{n, lineText(f.Content, starts, n)})
		}
		for n := l.Number + 1; n <= l.Number+o.after && n < len(starts); n++ {
			rec.After = append(rec.After, jsonLine{n, lineText(f.Content, starts, n)})
		}
		enc.Encode(rec)
	}
	return buf.Bytes()
}

// grepCLIFlags describe git grep's options for help and the man page;
// parseGrepArgs reads them.
func grepCLIFlags() []cli.Flag {
	var out []cli.Flag
	for _, opt := range grepOptionTable {
		key := opt.long
		if key == "" {
			key = string(opt.short)
		}
		usage := grepOptionUsage[key]
		if opt.nodash || usage == "" {
			continue
		}
		name, aliases := opt.long, []string(nil)
		if name == "" {
			name = string(opt.short)
		} else if opt.short != 0 {
			aliases = []string{string(opt.short)}
		}
		if opt.arg == argNone {
			out = append(out, &cli.BoolFlag{Name: name, Aliases: aliases, Usage: usage})
		} else {
			out = append(out, &cli.StringFlag{Name: name, Aliases: aliases, Usage: usage})
		}
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
