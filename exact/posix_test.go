package exact

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestPOSIX compares the lines POSIX basic (-G) and extended (-E)
// patterns select with those git grep selects, and their -o matches
// (POSIX's leftmost-longest), on a file of regex specials; ^$ finds git's
// line after the final newline (see Program.phantom).
func TestPOSIX(t *testing.T) {
	content := "foo(bar)\nfoo bar\na+b a++b ab\nx{2} xx xxx\nend$ here\n^start\n[bracket] b\n*star\na|b alt\n" +
		"back\\slash\nword wordy sword\n\tTab\nfoobar foo_bar\nabcabc\nxyz 123\n"
	dir := t.TempDir()
	git := func(args ...string) string {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+dir, "LC_ALL=C")
		out, err := cmd.Output()
		if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == 1 {
			return ""
		} else if err != nil {
			t.Fatalf("git %q: %v", args, err)
		}
		return string(out)
	}
	git("init", "-q")
	if err := os.WriteFile(filepath.Join(dir, "f"), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		syntax   Syntax
		patterns []string
	}{
		{BRE, []string{"foo(bar)", `foo\(bar\)`, "a+b", `a\+b`, `a\?b`, `x\{2\}`, "x{2}", `x\{2,\}`, "end$", `end\$`, "^start", `\^start`,
			`[bracket]`, `\[bracket\]`, "*star", `^*star`, `a|b`, `a\|b`, `back\\slash`, `\<word\>`, `\bword`, `word\b`, `[[:digit:]]\+`,
			`[^[:alpha:] ]`, `\w\+`, `\s`, `\(ab\)*c`, `[]b]`, `[a-c]\{3\}`, `.`, `o*`, "^$", `x*\?`, `x\{,1\}x`, `\(ab\)\1`,
			"\\`foo", "\\`", `abc\'`, `x*\+`}},
		{ERE, []string{"foo(bar)", `foo\(bar\)`, "a+b", `a\+b`, "x{2}", "x{2,3}", "end$", `end\$`, "^start", "a|b", `a\|b`, "(ab)+",
			`[[:space:]]`, `\<sword`, `[^a-z ]+`, "w(or)?d", "o+", `\.`, ")", "x+?", "a{,2}b", "x**", "x{1}{2}", "(ab)\\1",
			"(c)(a)\\2", "(|x)y", "()", "a||b", "x??"}},
	} {
		for _, p := range c.patterns {
			flag := "-G"
			if c.syntax == ERE {
				flag = "-E"
			}
			want := git("grep", "--no-index", "-n", flag, "-e", p, "f")
			wantO := git("grep", "--no-index", "-n", "-o", flag, "-e", p, "f")
			prog, err := CompileProgram([]Token{{Kind: TokPattern, Pattern: p}}, ProgramOptions{Options: Options{Syntax: c.syntax}})
			if err != nil {
				t.Errorf("%s %q: %v", flag, p, err)
				continue
			}
			m := prog.Matcher()
			var got, gotO []string
			prog.Lines([]byte(content), func(l Line) bool {
				line := content[l.Start:l.End]
				got = append(got, "f:"+strconv.Itoa(l.Number)+":"+line)
				for pos, notBOL := 0, false; pos < len(line); notBOL = true {
					a, b := m.NextMatch([]byte(line[pos:]), notBOL)
					if a < 0 || a == b {
						break
					}
					gotO = append(gotO, "f:"+strconv.Itoa(l.Number)+":"+line[pos+a:pos+b])
					pos += b
				}
				return true
			})
			if w := lines0(want); !slices.Equal(got, w) {
				t.Errorf("%s %q: lines\n%q\ngit grep:\n%q", flag, p, got, w)
			}
			if w := lines0(wantO); !slices.Equal(gotO, w) {
				t.Errorf("%s %q: -o\n%q\ngit grep:\n%q", flag, p, gotO, w)
			}
		}
	}
	for _, bad := range []string{`\(a`, `a\{1`, "[a", `x\1`, "[[.hyphen.]]", "[[:word:]]", `\(a\)\2`, "x**", `x\{1\}\{2\}`, `\{1\}`} {
		if _, err := Compile([]string{bad}, Options{Syntax: BRE}); err == nil {
			t.Errorf("-G %q: no error", bad)
		}
	}
}

func lines0(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}
