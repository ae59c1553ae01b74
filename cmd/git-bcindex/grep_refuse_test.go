package main

import (
	"strings"
	"testing"
)

// TestGrepRefusesAsGit: what git grep refuses, bcindex refuses with the
// same exit code and the same first line on stderr (git's message), and
// where git prints its usage on standard output (-h alone, an ambiguous
// option) so does bcindex.
func TestGrepRefusesAsGit(t *testing.T) {
	r := grepFixture(t)
	t.Setenv("HOME", r.Dir)
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("LC_ALL", "C")
	for _, c := range []grepCase{
		{env: []string{"GIT_CONFIG_PARAMETERS='grep.lineNumber'='bogus'"}, args: []string{"-c", "err"}},
		{env: []string{"GIT_CONFIG_PARAMETERS='grep.column'='2x'"}, args: []string{"err"}},
		{env: []string{"GIT_CONFIG_PARAMETERS='grep.extendedRegexp'='maybe'"}, args: []string{"err"}},
		{env: []string{"GIT_CONFIG_PARAMETERS='color.grep'='sometimes'"}, args: []string{"err"}},
		{env: []string{"GIT_CONFIG_PARAMETERS='core.quotePath'='bogus'"}, args: []string{"err"}},
		{env: []string{"GIT_CONFIG_PARAMETERS='grep.patternType'='bogus'"}, args: []string{"err"}},
		{args: []string{"-h"}}, {args: []string{"--files-with", "err"}}, {args: []string{"--no-e", "err"}},
		{args: []string{"-A", "x", "err"}}, {args: []string{"-m", "x", "err"}}, {args: []string{"--max-depth", "x", "err"}},
		{args: []string{"--and"}}, {args: []string{"-E", "[b-a]"}}, {args: []string{"-E", "a{2,1}"}}, {args: []string{"-E", "{1}"}},
		{args: []string{"-e", `a\{1`}}, {args: []string{"[[.hyphen.]]"}}, {args: []string{"[[:word:]]"}}, {args: []string{`\(a`}},
		{args: []string{"-G", `\(a\)\2`}}, {args: []string{"-G", "x**"}}, {args: []string{"-E", "a{32768}"}},
		{args: []string{"-P", "a("}}, {args: []string{"-P", "a)"}}, {args: []string{"-P", "[a"}}, {args: []string{"-P", "*a"}},
		{args: []string{"-P", `\`}}, {args: []string{"-P", "[b-a]"}}, {args: []string{"-P", "a{2,1}"}},
		{args: []string{"-P", "(?<=a+)b"}}, {args: []string{"-P", "(?<=a{1,2})b"}},
	} {
		name := strings.Join(c.env, " ") + " grep " + quoteArgs(c.args)
		t.Run(name, func(t *testing.T) {
			for _, kv := range c.env {
				k, v, _ := strings.Cut(kv, "=")
				t.Setenv(k, v)
			}
			wantOut, wantErr, wantCode := gitGrepRun(t, r.Dir, c.args)
			code, out, errOut := runCLI(t, r.Dir, append([]string{"grep"}, c.args...)...)
			if wantCode < 128 {
				t.Fatalf("git grep answered (exit %d): the case is wrong", wantCode)
			}
			if code != wantCode {
				t.Fatalf("exit %d, git's %d\nstderr: %s", code, wantCode, errOut)
			}
			first := func(s string) string { l, _, _ := strings.Cut(s, "\n"); return l }
			if first(errOut) != first(wantErr) {
				t.Errorf("stderr %q, git's %q", first(errOut), first(wantErr))
			}
			if (wantOut == "") != (out == "") {
				t.Errorf("stdout %.60q, git's %.60q: the usage goes where git puts it", out, wantOut)
			}
		})
	}
}
