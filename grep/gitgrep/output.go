package gitgrep

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/bcindex/bcindex/exact"
	"github.com/bcindex/bcindex/grep"
	"github.com/bcindex/bcindex/pathspec"
)

// renderer sets up the printing of a search over sources.
func (g *runner) renderer(prog *exact.Program, sources []grep.Source) (*grepRender, error) {
	o := g.o
	if o.json && o.vimgrep {
		return nil, ArgError{"--json and --vimgrep do not combine: pick one"}
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
			return name[:tl] + g.env.Quote(pathspec.Relative(name[tl:], g.prefix))
		}
		return name[:tl] + g.env.Quote(name[tl:])
	}
	r.jsonFile = func(f *grep.File, lines []exact.Line, spans func(exact.Line) [][2]int) []byte {
		return sourceJSON(f, sources[f.Source], o, lines, spans)
	}
	return r, nil
}

// output is where a search prints: Stdout or the pager's input, and
// whether to colour (for the ref selection's printer; the renderer of
// sources keeps its own).
type output struct {
	w     io.Writer
	close func() error
	color bool
}

// output decides colour (--color, color.grep, color.ui, git's slots) and
// starts the pager.
func (g *runner) output(r *grepRender) (*output, error) {
	o, cfg := g.o, g.env.Config
	when := o.color
	if when == "" {
		if g.env.Color != "" {
			when = g.env.Color
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
	out := &output{w: g.env.Stdout, close: func() error { return nil }, color: g.env.WantColor(when)}
	if r != nil {
		r.color = out.color && !r.json
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
	}
	if g.env.Pager != nil {
		out.w, out.close = g.env.Pager()
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
func (g *runner) openInPager(sources []grep.Source, ps *pathspec.Set, prog *exact.Program) error {
	pager := *g.o.pager
	if pager == "" {
		pager = g.env.PagerCommand
		if pager == "" {
			pager = "less"
		}
	}
	var names []string
	opts := grep.Options{Sources: sources, Program: prog, Pathspec: ps, FirstOnly: true, Binary: grep.BinaryMatch, SelectedOnly: true}
	v, err := g.view(sources, true)
	if err != nil {
		return err
	}
	defer v.Close()
	st, err := grep.Grep(g.ctx, v, opts, func(f *grep.File) error {
		names = append(names, pathspec.Relative(f.Path, g.prefix))
		return nil
	})
	if err != nil {
		return err
	}
	if st.Matched == 0 {
		return ErrNoMatch
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
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, g.env.Stdout, g.env.Stderr
	if err := cmd.Run(); err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return ExitStatus(ee.ExitCode())
		}
		return err
	}
	return nil
}
