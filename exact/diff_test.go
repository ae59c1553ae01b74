package exact

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestDifferential compares the (path, line) pairs that match with those
// git grep -n -I prints at HEAD, for 300 patterns drawn from a real corpus,
// each with and without -i and -w: -F for literals, -P for regexes. It
// also checks the plan: every file that matches satisfies Query.
func TestDifferential(t *testing.T) {
	files := loadCorpus(t)
	repo, env := gitRepo(t, files)
	g := newGenerator(29, files)
	if n := os.Getenv("EXACT_CASES"); n != "" {
		numCases, _ = strconv.Atoi(n)
	}
	var cases []genCase
	for i := range numCases {
		if i%2 == 0 {
			cases = append(cases, g.fixed())
		} else {
			cases = append(cases, g.regex())
		}
	}
	checkCoverage(t, cases)
	docs := make([]doc, 0, len(files))
	for _, f := range files {
		if !isBinary(f.content) {
			docs = append(docs, newDoc(f))
		}
	}
	compared, matched := 0, 0
	for _, c := range cases {
		for _, o := range []Options{{}, {IgnoreCase: true}, {Word: true}, {IgnoreCase: true, Word: true}} {
			o.Fixed = c.fixed
			wait := gitGrep(repo, env, c.pattern, o) // runs while we match
			m, err := Compile([]string{c.pattern}, o)
			if err != nil {
				t.Fatalf("%q %+v: %v", c.pattern, o, err)
			}
			got := matchDocs(t, m, docs, c.pattern, o)
			want, err := wait()
			if err != nil {
				t.Fatalf("%q %+v: %v", c.pattern, o, err)
			}
			if o.IgnoreCase && foldsNamedClass(c) {
				// A documented difference: RE2 folds \w and [[:alpha:]]
				// under -i, so they match the Kelvin sign and the long s,
				// which PCRE's do not.
				want, got = withoutRunes(want, docs), withoutRunes(got, docs)
			}
			compared++
			if len(want) > 0 {
				matched++
			}
			if !slices.Equal(got, want) {
				t.Errorf("%q %+v: %d lines, git grep %d\n only here: %q\n only in git: %q",
					c.pattern, o, len(got), len(want), minus(got, want), minus(want, got))
			}
		}
	}
	t.Logf("%d patterns × 4 option sets compared, %d of them matching", len(cases), matched)
	if matched < compared/2 {
		t.Errorf("only %d of %d comparisons match anything: the generator drifts", matched, compared)
	}
}

// doc is a corpus file with its trigrams.
type doc struct {
	corpusFile
	trigrams []uint32
}

func newDoc(f corpusFile) doc {
	return doc{corpusFile: f, trigrams: Trigrams(f.content, nil)}
}

// matchDocs returns the sorted "path:line" pairs m matches, checking on
// the way that spans are in order, apart and inside their line, that Match
// agrees with Lines (without -w) and that the plan admits every matching
// file.
func matchDocs(t *testing.T, m *Matcher, docs []doc, pattern string, o Options) []string {
	var out []string
	for _, d := range docs {
		m.Lines(d.content, func(l Line) bool {
			out = append(out, fmt.Sprintf("%s:%d", d.path, l.Number))
			last := -1
			for _, sp := range l.Spans {
				if sp[0] <= last || sp[0] >= sp[1] || sp[1] > l.End-l.Start {
					t.Errorf("%q %+v: %s:%d: bad spans %v in a line of %d bytes", pattern, o, d.path, l.Number, l.Spans, l.End-l.Start)
					break
				}
				last = sp[1]
			}
			return true
		})
		match := len(out) > 0 && strings.HasPrefix(out[len(out)-1], d.path+":")
		if !o.Word && m.Match(d.content) != match { // with -w too would cost a fifth more time
			t.Errorf("%q %+v: Match %v disagrees with Lines in %s", pattern, o, !match, d.path)
		}
		if match && !m.Query().Eval(func(tg uint32) bool { _, ok := slices.BinarySearch(d.trigrams, tg); return ok }) {
			t.Errorf("%q %+v: %s matches but fails the plan %v", pattern, o, d.path, m.Query())
		}
	}
	slices.Sort(out)
	return out
}

// gitGrep starts git grep and returns a function that waits for it and
// returns the sorted "path:line" pairs it printed.
func gitGrep(repo string, env []string, pattern string, o Options) func() ([]string, error) {
	args := []string{"-c", "core.quotePath=false", "grep", "-z", "-n", "-I", "--no-color"}
	if o.Fixed {
		args = append(args, "-F")
	} else {
		args = append(args, "-P")
	}
	if o.IgnoreCase {
		args = append(args, "-i")
	}
	if o.Word {
		args = append(args, "-w")
	}
	cmd := exec.Command("git", append(args, "-e", pattern, "HEAD", "--")...)
	cmd.Dir, cmd.Env = repo, env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		return func() ([]string, error) { return nil, err }
	}
	return func() ([]string, error) {
		err := cmd.Wait()
		return parseGitGrep(stdout.Bytes(), stderr.Bytes(), err)
	}
}

// parseGitGrep reads git grep -z -n output at HEAD.
func parseGitGrep(out, stderr []byte, err error) ([]string, error) {
	var ee *exec.ExitError
	if errors.As(err, &ee) && ee.ExitCode() == 1 && len(stderr) == 0 {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("git grep: %v: %s", err, stderr)
	}
	var pairs []string
	for len(out) > 0 {
		// HEAD:path NUL line NUL text LF
		out = bytes.TrimPrefix(out, []byte("HEAD:"))
		path, rest, _ := bytes.Cut(out, []byte{0})
		num, rest, _ := bytes.Cut(rest, []byte{0})
		_, out, _ = bytes.Cut(rest, []byte{'\n'})
		pairs = append(pairs, string(path)+":"+string(num))
	}
	slices.Sort(pairs)
	return pairs, nil
}

// minus returns up to five pairs of a that b lacks.
func minus(a, b []string) []string {
	var out []string
	for _, p := range a {
		if _, ok := slices.BinarySearch(b, p); !ok && len(out) < 5 {
			out = append(out, p)
		}
	}
	return out
}

// numCases is the number of generated patterns.
var numCases = 300

// checkCoverage fails if the generated patterns miss a kind the comparison
// must cover.
func checkCoverage(t *testing.T, cases []genCase) {
	kinds := map[string]func(genCase) bool{
		"literal with a quote":     func(c genCase) bool { return c.fixed && strings.ContainsAny(c.pattern, "\"'`") },
		"literal with a backslash": func(c genCase) bool { return c.fixed && strings.Contains(c.pattern, `\`) },
		"literal with punctuation": func(c genCase) bool { return c.fixed && strings.ContainsAny(c.pattern, "(){}[].,;:*&|!<>=+-") },
		"non-ASCII literal":        func(c genCase) bool { return c.fixed && !isASCII(c.pattern) },
		"one-byte literal":         func(c genCase) bool { return c.fixed && len(c.pattern) == 1 },
		"literal of over 30 bytes": func(c genCase) bool { return c.fixed && len(c.pattern) > 30 },
		"regex with a class":       func(c genCase) bool { return !c.fixed && strings.ContainsAny(c.pattern, "[") },
		"regex with alternation":   func(c genCase) bool { return !c.fixed && strings.Contains(c.pattern, "|") },
		"regex with an anchor":     func(c genCase) bool { return !c.fixed && strings.ContainsAny(c.pattern, "^$") },
		"regex with \\b":           func(c genCase) bool { return !c.fixed && strings.Contains(c.pattern, `\b`) },
		"regex with repetition":    func(c genCase) bool { return !c.fixed && strings.Contains(c.pattern, "{") },
		"regex with a lazy repeat": func(c genCase) bool { return !c.fixed && strings.Contains(c.pattern, "+?") },
		"regex with non-ASCII":     func(c genCase) bool { return !c.fixed && !isASCII(c.pattern) },
	}
	for name, is := range kinds {
		n := 0
		for _, c := range cases {
			if is(c) {
				n++
			}
		}
		if n < 2 {
			t.Errorf("%d generated patterns are a %s", n, name)
		}
	}
}

// foldsNamedClass reports whether a regex has \w, \W or a POSIX class,
// which RE2 case-folds under -i and PCRE does not.
func foldsNamedClass(c genCase) bool {
	return !c.fixed && (strings.Contains(c.pattern, `\w`) || strings.Contains(c.pattern, `\W`) || strings.Contains(c.pattern, "[:"))
}

// withoutRunes drops the pairs on lines holding the Kelvin sign or the long s.
func withoutRunes(pairs []string, docs []doc) []string {
	drop := map[string]bool{}
	for _, d := range docs {
		if !bytes.Contains(d.content, kelvin) && !bytes.Contains(d.content, longS) {
			continue
		}
		for i, l := range bytes.Split(d.content, []byte("\n")) {
			if bytes.Contains(l, kelvin) || bytes.Contains(l, longS) {
				drop[fmt.Sprintf("%s:%d", d.path, i+1)] = true
			}
		}
	}
	return slices.DeleteFunc(slices.Clone(pairs), func(p string) bool { return drop[p] })
}
