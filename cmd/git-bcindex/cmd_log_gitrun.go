package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/bcindex/bcindex/gitindex"
)

// runGitLog answers a `log -S/-G` call as git log does. The index narrows
// the commits (narrowLog); git prints the matching ones, with the call's
// own output options, so that the bytes are git's. A call the index cannot
// narrow (an option it does not know, a pattern it cannot plan, textconv
// drivers) is git's alone: git log runs with the same arguments, its
// output and exit code passed through.
func runGitLog(ctx context.Context, call gitLogCall, stdout, stderr io.Writer) int {
	g := gitRunner{dir: call.dir, noPager: call.noPager, color: call.color}
	plan, ok := planLog(call.args)
	if ok {
		// What the index fails at (a damaged table, a regex RE2 refuses),
		// git answers.
		if code, done, err := g.narrowed(ctx, &plan, stdout, stderr); err == nil && done {
			return code
		}
		if ctx.Err() != nil {
			return 130
		}
	}
	if logRoute != nil {
		logRoute("git", 0, 0)
	}
	return g.passThrough(ctx, call.args, stdout, stderr)
}

// gitRunner runs git in the call's directory.
type gitRunner struct {
	dir     string
	noPager bool
	color   string
}

// passThrough runs `git log args`, its streams and exit code the call's.
func (g gitRunner) passThrough(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	return g.exec(ctx, g.logArgs(args), nil, stdout, stderr)
}

// logArgs is `[--no-pager] log [--color=W] args`.
func (g gitRunner) logArgs(args []string) []string {
	out := []string{"log"}
	if g.noPager {
		out = []string{"--no-pager", "log"}
	}
	if g.color != "" {
		out = append(out, g.color)
	}
	return append(out, args...)
}

// exec runs git with args and returns its exit code (128 when it could not
// start, said on stderr).
func (g gitRunner) exec(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = g.dir
	cmd.Stdin, cmd.Stdout, cmd.Stderr = stdin, stdout, stderr
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee) && ee.ExitCode() >= 0:
		return ee.ExitCode()
	}
	fmt.Fprintf(stderr, "bcindex: run git log: %v\n", err)
	return 128
}

// output runs git with args and returns its stdout; ok is false when it
// failed, and the caller lets git answer the call alone.
func (g gitRunner) output(ctx context.Context, stdin string, args ...string) (string, bool) {
	var out bytes.Buffer
	var in io.Reader
	if stdin != "" {
		in = strings.NewReader(stdin)
	}
	code := g.exec(ctx, args, in, &out, io.Discard)
	return out.String(), code == 0
}

// walked is one commit of the walk and its parents.
type walked struct {
	hash    string
	parents int
}

// walk lists the commits git log walks for plan, in its order, from
// `git log --format="%H %P"` with the plan's walk options.
func (g gitRunner) walk(ctx context.Context, p *logPlan) ([]walked, bool) {
	args := []string{"-c", "log.showSignature=false", "log", "--format=%H %P"}
	args = append(args, p.walk...)
	args = append(args, p.revs...)
	if p.dashdash || len(p.paths) > 0 {
		args = append(append(args, "--"), p.paths...)
	}
	out, ok := g.output(ctx, "", args...)
	if !ok {
		return nil, false
	}
	var ws []walked
	for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		if line == "" {
			continue
		}
		f := strings.Fields(line)
		ws = append(ws, walked{hash: f[0], parents: len(f) - 1})
	}
	return ws, true
}

// onlyRevisions reports whether the positional arguments of a call without
// "--" are all revisions, as git log would read them: a path among them
// (or an argument git cannot read) leaves the call to git.
func (g gitRunner) onlyRevisions(ctx context.Context, p *logPlan) bool {
	if p.dashdash || len(p.revs) == 0 {
		return true
	}
	out, ok := g.output(ctx, "", append([]string{"rev-parse", "--no-revs", "--no-flags"}, p.revs...)...)
	return ok && strings.TrimSpace(out) == ""
}

// settings reads what changes what git log -S/-G matches: a textconv
// driver or log.follow leaves the call to git; log.showRoot and
// diff.renames make git decide every commit the index finds; attributes
// (a .gitattributes file, info/attributes, core.attributesFile) can make
// git read a binary file as text or a text file as binary.
func (g gitRunner) settings(ctx context.Context, regex bool) (gitOnly, untrusted, attributes bool) {
	out, _ := g.output(ctx, "", "config", "--get-regexp", `^(diff\..*\.textconv|log\.follow|log\.showroot|diff\.renames|core\.attributesfile)$`)
	for _, line := range strings.Split(out, "\n") {
		key, _, _ := strings.Cut(strings.ToLower(line), " ")
		switch {
		case key == "":
		case strings.HasSuffix(key, ".textconv") || key == "log.follow":
			gitOnly = true
		case key == "core.attributesfile":
			attributes = true
		default:
			untrusted = true
		}
	}
	if regex && !attributes { // only a regex's verdicts depend on them
		out, _ := g.output(ctx, "", "ls-files", "--", ":(glob)**/.gitattributes")
		attributes = strings.TrimSpace(out) != ""
		if p, ok := g.output(ctx, "", "rev-parse", "--git-path", "info/attributes"); ok {
			if _, err := os.Stat(filepath.Join(g.dir, strings.TrimSpace(p))); err == nil {
				attributes = true
			}
		}
	}
	return gitOnly, untrusted, attributes
}

// openLogRepo opens the repository for the index's part of the answer.
func openLogRepo(dir string) (*gitindex.Repo, settings, error) {
	if dir == "" {
		dir = "."
	}
	repo, err := gitindex.OpenRepo(dir)
	if err != nil {
		return nil, settings{}, err
	}
	s, err := readSettings(repo)
	return repo, s, err
}
