package mcp

import (
	"errors"
	"fmt"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// gitGrep is the oracle: the path:line pairs `git grep -n -I` reports at rev.
func gitGrep(t *testing.T, dir, rev string, args ...string) []string {
	t.Helper()
	args = append([]string{"grep", "-n", "-I"}, args...)
	if i := slices.Index(args, "--"); i >= 0 {
		args = slices.Insert(args, i, rev)
	} else {
		args = append(args, rev)
	}
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.Output()
	var exit *exec.ExitError
	if err != nil && !(errors.As(err, &exit) && exit.ExitCode() == 1) {
		t.Fatalf("git grep %v: %v", args, err)
	}
	var got []string
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if l == "" {
			continue
		}
		parts := strings.SplitN(strings.TrimPrefix(l, rev+":"), ":", 3)
		got = append(got, parts[0]+":"+parts[1])
	}
	return got
}

func locations(ms []grepMatch) []string {
	var out []string
	for _, m := range ms {
		out = append(out, fmt.Sprintf("%s:%d", m.Path, m.Line))
	}
	return out
}

// TestGrepLikeGitGrep compares the tool's answer with git grep's at two
// revisions, for fixed strings, regexes, -i and -w.
func TestGrepLikeGitGrep(t *testing.T) {
	f := newFixture(t)
	c := connect(t, f.repo)
	tests := []struct {
		args    map[string]any
		gitArgs []string
	}{
		{map[string]any{"pattern": "parse_config_file", "fixed": true}, []string{"-F", "parse_config_file"}},
		{map[string]any{"pattern": "err == nil"}, []string{"-P", "err == nil"}},
		{map[string]any{"pattern": `^func \w+\(`}, []string{"-P", `^func \w+\(`}},
		{map[string]any{"pattern": "retry", "ignore_case": true}, []string{"-i", "-P", "retry"}},
		{map[string]any{"pattern": "err", "word": true}, []string{"-w", "-P", "err"}},
		{map[string]any{"pattern": "return", "fixed": true, "path": "net/**"}, []string{"-F", "return", "--", "net/"}},
		{map[string]any{"pattern": "return|line 1[0-9]* of", "path": "!net/**"}, []string{"-P", "return|line 1[0-9]* of", "--", ":!net/"}},
	}
	for _, rev := range []string{"HEAD", "v1"} {
		for _, tt := range tests {
			args := map[string]any{"rev": rev, "max_matches": 1000, "max_bytes": 200_000}
			for k, v := range tt.args {
				args[k] = v
			}
			out, txt := ok[grepOut](t, c, "grep", args)
			want := gitGrep(t, f.dir, rev, tt.gitArgs...)
			if got := locations(out.Matches); !slices.Equal(got, want) {
				t.Errorf("grep %v at %s:\n got %v\nwant %v\n%s", tt.args, rev, got, want, clip(txt, 500))
			}
			if out.Truncated || out.Rev != rev || out.Commit == "" {
				t.Errorf("grep %v at %s: truncated=%v rev=%q commit=%q", tt.args, rev, out.Truncated, out.Rev, out.Commit)
			}
			for _, m := range out.Matches {
				if len(m.Refs) != 1 || m.Refs[0].Name != rev || m.Refs[0].Commit != out.Commit || m.Blob == "" {
					t.Errorf("match without provenance: %+v", m)
				}
				for _, s := range m.Spans {
					if s[0] >= s[1] || s[1] > len(m.Text) {
						t.Errorf("span %v outside %q", s, m.Text)
					}
				}
			}
		}
	}
	// The text answer reads like git grep, with the match in it.
	_, txt := ok[grepOut](t, c, "grep", map[string]any{"pattern": "func RetryWithBackoff"})
	if !strings.HasPrefix(txt, "net/retry.go:7:func RetryWithBackoff(fn func() error, attempts int) error {\n") ||
		!strings.Contains(txt, "[1 matching lines in 1 files at HEAD (commit ") {
		t.Errorf("text answer:\n%s", txt)
	}
}

// TestGrepPaging pages through 1200 matching lines, cut first by
// max_matches, then by the byte budget; the pages join up to the whole
// answer, with nothing repeated or lost.
func TestGrepPaging(t *testing.T) {
	f := newFixture(t)
	c := connect(t, f.repo)
	want := gitGrep(t, f.dir, "HEAD", "-F", "of a long file")
	if len(want) != 1200 {
		t.Fatalf("fixture: git grep found %d lines, want 1200", len(want))
	}
	for _, page := range []map[string]any{{"max_matches": 500, "max_bytes": 200_000}, {"max_bytes": 4000}} {
		var got []string
		offset, calls := 0, 0
		for {
			args := map[string]any{"pattern": "of a long file", "fixed": true, "offset": offset}
			for k, v := range page {
				args[k] = v
			}
			out, txt := ok[grepOut](t, c, "grep", args)
			got = append(got, locations(out.Matches)...)
			calls++
			if !out.Truncated {
				if out.NextOffset != 0 {
					t.Errorf("last page has next_offset %d", out.NextOffset)
				}
				break
			}
			if out.NextOffset != offset+len(out.Matches) || !strings.Contains(out.Note, fmt.Sprintf("offset=%d", out.NextOffset)) || !strings.Contains(txt, "truncated") {
				t.Fatalf("page at %d: next_offset %d after %d matches, note %q", offset, out.NextOffset, len(out.Matches), out.Note)
			}
			if b, ok := page["max_bytes"].(int); ok && jsonSize(out.Matches) > b+len(out.Matches)+1 {
				t.Errorf("page of %d bytes, budget %d", jsonSize(out.Matches), b)
			}
			offset = out.NextOffset
			if calls > 100 {
				t.Fatal("paging does not end")
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("pages %v: %d lines in %d calls, want the %d of git grep", page, len(got), calls, len(want))
		}
		if _, limited := page["max_matches"]; limited && calls != 3 {
			t.Errorf("max_matches 500 over 1200 lines took %d calls, want 3", calls)
		}
	}
	// Past the end: no matches, and a note that says so.
	out, _ := ok[grepOut](t, c, "grep", map[string]any{"pattern": "of a long file", "offset": 5000})
	if len(out.Matches) != 0 || out.Truncated || !strings.Contains(out.Note, "after offset 5000") {
		t.Errorf("offset past the end: %+v", out)
	}
}

// TestGrepRevisions: one line per distinct content, naming every revision
// that holds it.
func TestGrepRevisions(t *testing.T) {
	f := newFixture(t)
	c := connect(t, f.repo)
	out, txt := ok[grepOut](t, c, "grep", map[string]any{"pattern": `def parse_config_file|func Retry\w*`, "revisions": []string{"main", "v*"}})
	if len(out.Revisions) != 2 || out.Rev != "" {
		t.Fatalf("revisions %+v, rev %q", out.Revisions, out.Rev)
	}
	refs := map[string]string{}
	for _, m := range out.Matches {
		var names []string
		for _, r := range m.Refs {
			names = append(names, r.Name)
		}
		refs[fmt.Sprintf("%s:%d", m.Path, m.Line)] = strings.Join(names, ",")
	}
	want := map[string]string{"py/config.py:7": "main,v1", "net/retry.go:7": "main", "net/retry.go:6": "v1"}
	if fmt.Sprint(refs) != fmt.Sprint(want) {
		t.Errorf("refs per line = %v, want %v\n%s", refs, want, txt)
	}
	if !strings.Contains(txt, "main,v1:py/config.py:7:    def parse_config_file(self, path):\n") {
		t.Errorf("text answer does not name the revisions:\n%s", txt)
	}
}

// TestGrepBadInput: bad patterns and arguments are tool errors that say
// what is wrong; links, submodules and binary files are never searched.
func TestGrepBadInput(t *testing.T) {
	f := newFixture(t)
	c := connect(t, f.repo)
	tests := []struct {
		args map[string]any
		want []string
	}{
		{map[string]any{"pattern": "retry(fn"}, []string{"invalid pattern", "missing closing )", "offset 5", "fixed=true"}},
		{map[string]any{"pattern": `a**`}, []string{"invalid pattern", "offset", "backreferences"}},
		{map[string]any{"pattern": ""}, []string{"pattern is required"}},
		{map[string]any{"pattern": "x", "max_matches": 5000}, []string{"ceiling 1000"}},
		{map[string]any{"pattern": "x", "offset": -1}, []string{"negative"}},
		{map[string]any{"pattern": "x", "path": "../**"}, []string{`".." may not appear`}},
		{map[string]any{"pattern": "x", "path": "!/etc/*"}, []string{"absolute path"}},
		{map[string]any{"pattern": "x", "path": "[a-"}, []string{"glob"}},
		{map[string]any{"pattern": "x", "rev": "no-such-branch"}, []string{"no-such-branch"}},
	}
	for _, tt := range tests {
		res := c.call(t, "grep", tt.args)
		txt := resultText(res)
		for _, w := range tt.want {
			if !res.IsError || !strings.Contains(txt, w) {
				t.Errorf("grep %v: error=%v %q, want an error containing %q", tt.args, res.IsError, clip(txt, 300), w)
			}
		}
	}
	// "ab" is in data.bin, "README.md" and "/" are symlink targets:
	// none is searched, as git grep -I searches none of them.
	out, _ := ok[grepOut](t, c, "grep", map[string]any{"pattern": `^ab|^(README\.md|/|\.\./\.\./etc)$`})
	if len(out.Matches) != 0 {
		t.Errorf("binary files or symlinks searched: %+v", out.Matches)
	}
}
