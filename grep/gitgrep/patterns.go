package gitgrep

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/bcindex/bcindex/exact"
)

// pattern reads the patterns of -f files and, when no -e or -f gave
// one, takes the first argument as the pattern; it returns the arguments
// that follow.
func (g *runner) pattern() ([]string, error) {
	o := g.o
	if err := g.readPatternFiles(); err != nil {
		return nil, err
	}
	args := o.args
	if len(args) > 0 && len(o.tokens) == 0 && args[0] == "--" {
		args = args[1:]
	}
	if len(args) > 0 && len(o.tokens) == 0 {
		o.tokens = append(o.tokens, exact.Token{Kind: exact.TokPattern, Pattern: args[0], Origin: "command line"})
		args = args[1:]
	}
	if len(o.tokens) == 0 {
		return nil, Fatal{"no pattern given"}
	}
	return args, nil
}

// readPatternFiles replaces each -f FILE by the file's lines (empty lines
// skipped), read as git reads it: from the top of the working tree, or
// standard input for "-".
func (g *runner) readPatternFiles() error {
	var out []exact.Token
	for _, t := range g.o.tokens {
		if t.Kind != tokPatternFile {
			out = append(out, t)
			continue
		}
		var r io.Reader
		if t.Pattern == "-" {
			r = os.Stdin
		} else {
			p := t.Pattern
			if !filepath.IsAbs(p) && g.top != "" {
				p = filepath.Join(g.top, p)
			}
			f, err := os.Open(p)
			if err != nil {
				return Fatal{fmt.Sprintf("cannot open '%s': %s", t.Pattern, errnoText(err))}
			}
			defer f.Close()
			r = f
		}
		sc := bufio.NewScanner(r)
		sc.Buffer(nil, 1<<30)
		for n := 1; sc.Scan(); n++ {
			line := strings.TrimSuffix(sc.Text(), "\r")
			if line != "" {
				origin := fmt.Sprintf("In '%s' at %d", t.Pattern, n)
				out = append(out, exact.Token{Kind: exact.TokPattern, Pattern: line, Origin: origin})
			}
		}
		if err := sc.Err(); err != nil {
			return fmt.Errorf("read %s: %w", t.Pattern, err)
		}
	}
	g.o.tokens = out
	return nil
}

// errnoText is the C library's text for an error, as git prints it.
func errnoText(err error) string {
	var pe *os.PathError
	if errors.As(err, &pe) {
		s := pe.Err.Error()
		return strings.ToUpper(s[:1]) + s[1:]
	}
	return err.Error()
}

// compile compiles the pattern expression with -F, -E, -P or the default
// basic syntax.
func (g *runner) compile() (*exact.Program, error) {
	o := g.o
	po := exact.ProgramOptions{
		Options: exact.Options{IgnoreCase: o.ignoreCase, Word: o.word, ASCII: !utf8Locale()},
		Invert:  o.invert, AllMatch: o.allMatch, After: o.after, FunctionContext: o.funcbody,
	}
	switch o.syntax {
	case patternFixed:
		po.Fixed = true
	case patternERE:
		po.Syntax = exact.ERE
	case patternPCRE:
		po.Syntax = exact.PCRE
	default:
		po.Syntax = exact.BRE
	}
	prog, err := exact.CompileProgram(o.tokens, po)
	if err != nil {
		var pe *exact.PatternError
		if errors.As(err, &pe) {
			where := "command line"
			for _, t := range o.tokens {
				if t.Kind == exact.TokPattern && slices.Contains(strings.Split(t.Pattern, "\n"), pe.Pattern) {
					where = t.Origin
					break
				}
			}
			return nil, Fatal{fmt.Sprintf("%s, '%s': %s", where, pe.Pattern, pe.GitMessage())}
		}
		return nil, Fatal{err.Error()}
	}
	return prog, nil
}

// utf8Locale reports whether the locale git would run in is a UTF-8 one
// (LC_ALL, else LC_CTYPE, else LANG), which decides how patterns fold
// case and what their classes hold.
func utf8Locale() bool {
	v := os.Getenv("LC_ALL")
	if v == "" {
		v = os.Getenv("LC_CTYPE")
	}
	if v == "" {
		v = os.Getenv("LANG")
	}
	v = strings.ToLower(v)
	return strings.Contains(v, "utf-8") || strings.Contains(v, "utf8")
}
