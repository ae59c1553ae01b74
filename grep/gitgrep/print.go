package gitgrep

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"syscall"

	"github.com/bcindex/bcindex/exact"
	"github.com/bcindex/bcindex/grep"
)

// errPipeClosed is a write to a reader that went away (a pager quit, head
// had enough): the search stops quietly.
var errPipeClosed = errors.New("output closed")

type grepMode int

const (
	listLines grepMode = iota
	listFiles
	listWithout
	countLines
)

// grepPrinter prints files as grep.Grep yields them.
type grepPrinter struct {
	mode          grepMode
	json, vimgrep bool
	null          bool
	before, after int
	multi         bool // name the revisions holding each file
	printed       bool // a group of lines was printed
	w             *bufio.Writer
	paint         paint
	quote         func(string) string
	enc           *json.Encoder
}

// Colours of the ref selection's output, as git paints grep and log
// output: file names magenta, line numbers green, separators cyan,
// matches bold red, commits yellow.
const (
	sgrPath   = "\x1b[1;35m"
	sgrLine   = "\x1b[32m"
	sgrSep    = "\x1b[36m"
	sgrMatch  = "\x1b[1;31m"
	sgrCommit = "\x1b[33m"
)

// paint writes SGR sequences when colour is on.
type paint bool

func (on paint) paint(sgr, s string) string {
	if !on || s == "" {
		return s
	}
	return sgr + s + colorReset
}

// newGrepPrinter prints a search over bcindex's ref selection (--ref,
// --all-branches, --tags, --all): each file once, after the revisions
// holding it, with line numbers.
func newGrepPrinter(o *Options) (*grepPrinter, error) {
	p := &grepPrinter{json: o.json, vimgrep: o.vimgrep, null: o.null, multi: true}
	n := 0
	for _, m := range []struct {
		on   bool
		mode grepMode
	}{{o.nameOnly, listFiles}, {o.unmatchName, listWithout}, {o.count, countLines}} {
		if m.on {
			p.mode = m.mode
			n++
		}
	}
	if n > 1 {
		return nil, ArgError{"-l, -L and -c do not combine: pick one"}
	}
	if p.json && p.vimgrep {
		return nil, ArgError{"--json and --vimgrep do not combine: pick one"}
	}
	p.before, p.after = o.before, o.after
	if p.before < 0 || p.after < 0 {
		return nil, ArgError{"-A, -B, -C and -m take a number of lines, 0 or more"}
	}
	return p, nil
}

func (p *grepPrinter) bind(o *output, quote func(string) string) {
	p.w = bufio.NewWriterSize(o.w, 64<<10)
	p.paint, p.quote = paint(o.color), quote
	p.enc = json.NewEncoder(p.w)
	p.enc.SetEscapeHTML(false)
}

// file prints one file's matches and flushes, so that output streams.
func (p *grepPrinter) file(f *grep.File) error {
	var err error
	switch {
	case p.json:
		err = p.jsonFile(f)
	case p.mode == listFiles || p.mode == listWithout:
		p.name(f, "\n")
	case p.mode == countLines:
		p.name(f, ":")
		fmt.Fprintf(p.w, "%d\n", len(f.Lines))
	case p.vimgrep:
		for _, l := range f.Lines {
			for _, s := range l.Spans {
				p.name(f, ":")
				fmt.Fprintf(p.w, "%d:%d:%s\n", l.Number, s[0]+1, f.Content[l.Start:l.End])
			}
		}
	default:
		p.lines(f)
	}
	if err == nil {
		err = p.w.Flush()
	}
	if errors.Is(err, syscall.EPIPE) {
		return errPipeClosed
	}
	return err
}

// name prints the file's name (after the revisions holding it), then sep
// (NUL with -z).
func (p *grepPrinter) name(f *grep.File, sep string) {
	if p.multi {
		refs := make([]string, len(f.Refs))
		for i, r := range f.Refs {
			refs[i] = r.Name
		}
		p.w.WriteString(p.paint.paint(sgrCommit, strings.Join(refs, ",")) + p.paint.paint(sgrSep, ":"))
	}
	p.w.WriteString(p.paint.paint(sgrPath, p.quote(f.Path)))
	switch {
	case p.null:
		p.w.WriteByte(0)
		if sep == "\n" {
			return
		}
	case sep == ":":
		p.w.WriteString(p.paint.paint(sgrSep, ":"))
		return
	}
	p.w.WriteString(sep)
}

// lines prints matching lines with their context, git grep's way: context
// lines take '-' after the line number, and "--" separates groups that do
// not touch.
func (p *grepPrinter) lines(f *grep.File) {
	starts := lineStarts(f.Content, p.before, p.after, f.Lines)
	last := 0 // last line printed
	for i, l := range f.Lines {
		lo := max(1, l.Number-p.before)
		if i > 0 && lo <= last+1 {
			lo = last + 1
		} else if p.printed && (p.before > 0 || p.after > 0) {
			p.w.WriteString(p.paint.paint(sgrSep, "--") + "\n")
		}
		p.printed = true
		for n := lo; n < l.Number; n++ {
			p.contextLine(f, n, starts)
		}
		p.name(f, ":")
		p.w.WriteString(p.paint.paint(sgrLine, fmt.Sprint(l.Number)) + p.paint.paint(sgrSep, ":"))
		p.w.WriteString(p.highlight(f.Content[l.Start:l.End], l.Spans) + "\n")
		last = l.Number
		hi := l.Number + p.after
		if i+1 < len(f.Lines) {
			hi = min(hi, f.Lines[i+1].Number-1)
		}
		for n := l.Number + 1; n <= hi && n < len(starts); n++ {
			p.contextLine(f, n, starts)
			last = n
		}
	}
}

func (p *grepPrinter) contextLine(f *grep.File, n int, starts []int) {
	p.name(f, "-")
	text := f.Content[starts[n-1]:starts[n]]
	if len(text) > 0 && text[len(text)-1] == '\n' {
		text = text[:len(text)-1]
	}
	p.w.WriteString(p.paint.paint(sgrLine, fmt.Sprint(n)) + p.paint.paint(sgrSep, "-") + string(text) + "\n")
}

func (p *grepPrinter) highlight(line []byte, spans [][2]int) string {
	if !p.paint || len(spans) == 0 {
		return string(line)
	}
	var b strings.Builder
	at := 0
	for _, s := range spans {
		b.Write(line[at:s[0]])
		b.WriteString(p.paint.paint(sgrMatch, string(line[s[0]:s[1]])))
		at = s[1]
	}
	b.Write(line[at:])
	return b.String()
}

func (p *grepPrinter) jsonFile(f *grep.File) error {
	base := jsonBase(f.Path, f.Blob)
	for _, r := range f.Refs {
		base.Refs = append(base.Refs, jsonRef{r.Name, r.Commit.String()})
	}
	switch p.mode {
	case listFiles, listWithout:
		return p.enc.Encode(base)
	case countLines:
		n := len(f.Lines)
		base.Count = &n
		return p.enc.Encode(base)
	}
	return encodeLines(p.enc, base, f.Content, f.Lines, p.before, p.after, func(l exact.Line) [][2]int { return l.Spans })
}
