package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bcindex/bcindex/internal/testkit/gittest"
)

// grepFixture is a repository with what git grep's options meet: white
// space, regex specials, functions in Go and C, a binary file, CRLF, a
// file without a final newline, names needing quotes, a symlink; two
// commits, a branch, an annotated tag; and a working tree with unstaged,
// staged, deleted, untracked and ignored files.
func grepFixture(t *testing.T) *gittest.Repo {
	r := gittest.New(t)
	r.Git("config", "core.autocrlf", "false")
	v1 := map[string]string{
		"README.md": "# Tools\n\nTODO: write the guide\n  indented err here\nerr  trailing\n\terr after a tab\n",
		"src/main.go": "package main\n\nimport \"fmt\"\n\n// run does it.\nfunc run() error {\n\tif err := step(); err != nil {\n\t\treturn err\n\t}\n\treturn nil\n}\n\n" +
			"func step() error {\n\terr := fmt.Errorf(\"x\")\n\t// TODO: retry\n\treturn err\n}\n\ntype T struct {\n\tErr error\n}\n",
		"src/util/read.go":      "package util\n\n// ReadAll reads.\nfunc ReadAll() {\n\tbuf := make([]byte, 8)\n\t_ = buf\n}\n",
		"src/util/strings.go":   "package util\n\nfunc Join(a, b string) string {\n\treturn a + b\n}\n\nfunc Split() {}\n",
		"docs/guide.txt":        "foo bar\nFoo Bar\nfoo(bar)\na+b and a++b\nxx and xxx\nend$\n[bracket]\n-foo at start\nfoo.bar\nthe err, the nil\nerr without\nnil without\n",
		"c/prog.c":              "#include <stdio.h>\n\nstatic int helper(int x)\n{\n\tint err = x;\n\n\treturn err;\n}\n\n/* main: the entry */\nint main(void)\n{\n\tprintf(\"hello\\n\");\n\treturn helper(1);\n}\n",
		"bin/data.bin":          "binary\x00data err here\nmore err\n",
		"crlf.txt":              "err line one\r\nline two\r\nerr three\r\n",
		"noeol.txt":             "first\nlast err",
		"with space/a file.txt": "err in a spaced name\n",
		"ünï/cödé.txt":          "err in a non-ASCII name\n",
		"quote\"d.txt":          "err in a quoted name\n",
		"empty.txt":             "",
		".gitignore":            "*.log\n",
		"patterns.txt":          "foo\n\nerr  \r\n",
	}
	r.Commit("one", v1)
	r.Git("tag", "-a", "-m", "v1", "v1")
	r.Git("branch", "old")
	if err := os.Symlink("src/main.go", filepath.Join(r.Dir, "link.go")); err != nil {
		t.Fatal(err)
	}
	r.Commit("two", map[string]string{
		"src/main.go":  v1["src/main.go"] + "\nfunc extra() { _ = \"err two\" }\n",
		"src/added.go": "package main\n\n// added err\n",
		// Attributes: binary and -diff make a text file binary, diff makes
		// a binary one text.
		".gitattributes": "*.dat binary\nforced.txt -diff\nbin/data.bin diff\n",
		"table.dat":      "err in a dat file\n",
		"forced.txt":     "err forced binary\n",
		"docs/guide.txt": v1["docs/guide.txt"] + "added in two\n",
	})
	// The working tree: unstaged, staged-then-changed, deleted, untracked
	// and ignored files.
	r.Write(map[string]string{"src/util/read.go": "package util\n\n// ReadAll reads, err.\nfunc ReadAll() {}\n"})
	r.Write(map[string]string{"docs/guide.txt": v1["docs/guide.txt"] + "staged err\n"})
	r.Git("add", "docs/guide.txt")
	r.Write(map[string]string{"docs/guide.txt": v1["docs/guide.txt"] + "staged err\nunstaged err\n"})
	r.Remove("noeol.txt")
	r.Write(map[string]string{"untracked.txt": "err untracked\n", "debug.log": "err ignored\n"})
	return r
}

// grepCase is one command line given to both git grep and git bcindex
// grep, in dir (relative to the repository), with env set for both.
type grepCase struct {
	dir  string
	args []string
	env  []string
}

// TestGrepMatchesGit runs command lines scripts give git grep through
// both, and compares their output byte for byte and their exit codes; where
// git refuses a command line (exit 128 or 129), bcindex must refuse it
// with the same code and say why on stderr (git prints its usage on
// stdout for some of those: that is not compared).
func TestGrepMatchesGit(t *testing.T) {
	r := grepFixture(t)
	t.Setenv("HOME", r.Dir)
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	if code, _, errOut := runCLI(t, r.Dir, "index"); code != 0 {
		t.Fatalf("index: %s", errOut)
	}
	for _, c := range grepCases() {
		name := strings.Join(c.args, " ")
		if c.dir != "" {
			name = c.dir + ": " + name
		}
		if len(c.env) > 0 {
			name = strings.Join(c.env, " ") + " " + name
		}
		t.Run(name, func(t *testing.T) {
			for _, kv := range c.env {
				k, v, _ := strings.Cut(kv, "=")
				t.Setenv(k, v)
			}
			dir := filepath.Join(r.Dir, c.dir)
			wantOut, wantErr, wantCode := gitGrepRun(t, dir, c.args)
			code, out, errOut := runCLI(t, dir, append([]string{"grep"}, c.args...)...)
			if code != wantCode {
				t.Fatalf("exit %d, git's %d\nstderr: %s\ngit's stderr: %s", code, wantCode, errOut, wantErr)
			}
			if wantCode >= 128 && errOut == "" {
				t.Errorf("git refused (%s) and nothing was said on stderr", strings.TrimSpace(wantErr))
			}
			if wantCode < 128 && out != wantOut {
				t.Errorf("stdout differs\n--- git grep\n%q\n--- git bcindex grep\n%q", wantOut, out)
			}
		})
	}
}

func gitGrepRun(t *testing.T, dir string, args []string) (string, string, int) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"grep"}, args...)...)
	cmd.Dir = dir
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errOut.String(), code
}

func grepCases() []grepCase {
	a := func(args ...string) grepCase { return grepCase{args: args} }
	in := func(dir string, args ...string) grepCase { return grepCase{dir: dir, args: args} }
	env := func(kv string, args ...string) grepCase { return grepCase{env: []string{kv}, args: args} }
	return []grepCase{
		// Patterns: -e keeps white space, several -e, one starting with
		// '-', -f FILE, the positional pattern after "--".
		a("-e", "  err"), a("-e", "\terr"), a("-e", "err  "), a("-F", "-e", "  err"), a("-F", "-e", "\terr"),
		a("-e", "-foo"), a("-e", "foo", "-e", "nil"), a("-n", "-e", "TODO", "-e", "Join"), a("--", "-foo"),
		a("-f", "patterns.txt"), a("-n", "-f", "patterns.txt", "-e", "Split"), in("src", "-f", "patterns.txt"),
		a("-f", "nosuchfile"), a(), a("-n"),
		// Output forms.
		a("err"), a("-n", "err"), a("-c", "err"), a("-l", "err"), a("--name-only", "err"), a("-L", "err"),
		a("-h", "err"), a("-H", "-c", "err"), a("-o", "err"), a("-n", "-o", "e[a-z]*"), a("-q", "err"), a("-q", "nosuchstring"),
		a("-v", "-n", "err", "--", "docs"), a("-v", "-c", "err"), a("-w", "err"), a("-i", "-n", "todo"), a("-n", "-w", "-i", "FOO"),
		a("--column", "-n", "err"), a("--column", "-o", "err"), a("--column", "-v", "err", "--", "docs"),
		a("-m1", "-n", "err"), a("-m", "2", "-c", "err"), a("-m0", "err"), a("-m1", "-A2", "-n", "err", "--", "README.md"),
		a("--heading", "-n", "err"), a("--break", "err"), a("--break", "--heading", "-n", "err"),
		// Regular expressions: basic by default, -E, -F, -P.
		a("a+b"), a("a\\+b"), a("-E", "a+b"), a("-F", "a+b"), a("-E", "x{3}"), a("x\\{3\\}"), a("foo(bar)"),
		a("-E", "foo\\(bar\\)"), a("-E", "foo(bar)"), a("[bracket]"), a("\\[bracket\\]"), a("end\\$"), a("end$"),
		a("-n", "^func"), a("-E", "-n", "^(func|type) "), a("-P", "\\bnil\\b"), a("-G", "foo\\|Split"), a("foo.bar"), a("-F", "foo.bar"),
		a("-E", "a(b"), a("\\(a"),
		// Pattern expressions.
		a("-e", "err", "--and", "-e", "nil"), a("-n", "-e", "err", "--and", "--not", "-e", "nil"),
		a("(", "-e", "foo", "--or", "-e", "nil", ")", "--and", "-e", "the"), a("--not", "-e", "e", "--", "docs"),
		a("--all-match", "-e", "TODO", "-e", "ReadAll"), a("--all-match", "-e", "TODO", "-e", "Errorf", "-l"),
		a("--column", "-n", "-e", "nil", "--and", "--not", "-e", "err"),
		a("-e", "err", "--and"), a("(", "-e", "err"), a("-e", "err", ")"), a("--not"), a("--and", "-e", "err"),
		// Context and function lines.
		a("-A1", "err"), a("-B2", "-n", "err"), a("-C1", "err"), a("-2", "err"), a("-n", "-C", "1", "TODO"),
		a("-p", "err"), a("-p", "-n", "return"), a("-W", "err"), a("-W", "-n", "printf"), a("-p", "-C1", "TODO"),
		a("-W", "-n", "err", "--", "src"), a("-n", "-p", "-W", "helper"),
		// -z.
		a("-z", "err"), a("-z", "-n", "err"), a("-z", "-l", "err"), a("-z", "-c", "err"), a("-z", "-n", "err", "HEAD"),
		a("-z", "-n", "-A1", "TODO"),
		// Binary files: matched and named by default, -I, -a.
		a("data"), a("-c", "err", "--", "bin"), a("-I", "err"), a("-a", "-n", "err", "--", "bin"), a("-l", "data"),
		a("err", "HEAD"), a("-I", "-l", "err", "HEAD"), a("err", "HEAD~1"), a("-c", "err", "HEAD^{tree}"),
		// Revisions: one, several, tags, ancestry, trees, blobs, unknown.
		a("-n", "err", "HEAD"), a("err", "old"), a("-c", "err", "HEAD", "old"), a("err", "v1"), a("err", "HEAD~1"),
		a("err", "main^{tree}"), a("err", "HEAD:src"), a("-n", "err", "HEAD:src/main.go"), a("err", "HEAD:"),
		a("err", "nosuchref"), a("err", "nosuchref", "--"), a("err", "--", "nosuchpath"), a("err", "HEAD", "--", "src"),
		a("err", "HEAD", "src"), a("err", "src"), a("err", "HEAD:nosuch"), a("err", "HEAD", "-n"),
		a("--cached", "err", "HEAD"),
		// Where git reads files: the working tree, the index, untracked
		// files, any directory.
		a("-n", "err", "--", "src/util"), a("--cached", "-n", "err"), a("--cached", "staged"), a("unstaged"),
		a("--untracked", "err"), a("--untracked", "--no-exclude-standard", "err"), a("--no-index", "err"),
		a("--no-index", "--cached", "err"), a("--exclude-standard", "err"), a("--untracked", "err", "HEAD", "--"),
		// Pathspecs and their magic.
		a("err", "--", ":(glob)**/read.go"), a("-i", "todo", "--", ":(icase)readme*"), a("err", "--", ":!src"),
		a("err", "--", ":^src"), a("err", "--", ":(exclude)src", ":(exclude)docs"), a("err", "--", "*.go"),
		a("err", "--", "src/*.go"), a("err", "--", "src/"), a("err", "--", "./src"), a("--max-depth", "0", "err"),
		a("--max-depth", "1", "err", "--", "src"), a("err", "--", ":(glob)src/*"), a("err", "--", ":(literal)*.go"),
		a("err", "HEAD", "--", ":(glob)**/*.go"), a("err", "--", ":(bogus)x"), a("-c", "err", "--", "c?"),
		a("-l", "err", "--", ":(attr:-diff)"), a("-c", "err", "--", ":(attr:!diff)"), a("-l", "err", "--", ":(exclude,attr:binary)"),
		a("-l", "err", "HEAD", "--", ":(attr:diff)"), a("-l", "err", "--", ":(attr:binary)*.dat"), a("err", "--", ":(attr:)"),
		// From a subdirectory: paths relative to it.
		in("src", "-c", "err"), in("src", "err", "--", "main.go"), in("src", "-n", "err", "HEAD"),
		in("src", "err", "--", ":/"), in("src", "--full-name", "err"), in("src", "err", "HEAD:src"),
		in("src", "-l", "err", "--", "../docs"), in("src", "err", "--", ":(top)docs"), in("src/util", "err", "--", "../.."),
		in("src", "-z", "-n", "err", "--", ":/"), in("src", "err", "main.go"), in("src", "--cached", "-l", "err"),
		in("src", "err", "HEAD:src/main.go"), in("src", "--untracked", "-l", "err", "--", ":/"),
		// Names that need quoting.
		a("-l", "name"), a("-c", "name"), env("GIT_CONFIG_PARAMETERS='core.quotePath'='false'", "-l", "name"),
		// git -c and GIT_CONFIG_COUNT.
		env("GIT_CONFIG_PARAMETERS='grep.lineNumber'='true'", "TODO"),
		env("GIT_CONFIG_PARAMETERS='grep.patternType=extended'", "a+b"),
		env("GIT_CONFIG_PARAMETERS='color.ui'='always'", "-n", "TODO"),
		{env: []string{"GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=grep.column", "GIT_CONFIG_VALUE_0=true"}, args: []string{"TODO"}},
		// Colour.
		a("--color=always", "err"), a("--color=always", "-n", "-C1", "TODO"), a("--color=always", "-o", "err"),
		a("--color=always", "-p", "-n", "Errorf"), a("--color", "-c", "err"), a("--color=always", "--heading", "TODO"),
		env("GIT_CONFIG_PARAMETERS='color.grep.match'='green bold'", "--color=always", "TODO"),
		// Options git refuses.
		a("-x", "err"), a("-cached", "err"), a("--nosuch", "err"), a("--n", "err"), a("-A", "x", "err"), a("--color=sometimes", "err"),
		// Corners.
		a("-e", ""), a("-c", "-e", ""), a("-w", "-c", "-e", ""), a("-i", "-F", "FOO"), a("-e", "foo\nnil"), a("-o", "-i", "foo"),
		a("-c", "-v", "err"), a("-L", "-I", "data"), a("-l", "-v", "err"), a("-r", "-c", "err"), a("--no-recursive", "err"),
		a("-C", "0", "err"), a("--threads", "2", "-c", "err"), a("--textconv", "-c", "err"), a("-hc", "err"),
		a("-v", "-n", "-e", "err", "--and", "-e", "nil", "--", "docs"), a("--heading", "-c", "err"), a("-W", "-A1", "Split"),
		a("--color=always", "-v", "-n", "e", "--", "docs"), a("err", "v1:src"), a("--cached", "-c", "err", "--", ":(icase)DOCS"),
		in("src", "-n", "err", "--", "*.txt"), in("src", "-n", "err", "--", "*.go"), in("docs", "-c", "err", "HEAD:src"),
		a("-E", "("), a("-n", "-e", "Join", "-e", "Split", "--all-match"),
		a("-n", "--column", "-w", "err"), a("-o", "-b", "err"), a("--and"), a("-e"), a("-A"),
		a("-l", "err", "HEAD", "old", "v1"), a("-c", "err", "HEAD:src", "HEAD:docs"),
		// git's line after the final newline, which ^$ finds.
		a("-n", "^$"), a("-c", "^$"), a("-l", "^$"), a("-L", "^$"), a("-n", "-A1", "^$"), a("-n", "-A100", "^$", "--", "docs"),
		a("-n", "-P", "^$"), a("-n", "-w", "^$"), a("-n", "-m1", "^$"), a("-E", "-c", "^$|nomatch"), a("-c", "-v", "^$"),
		// Abbreviations and negations.
		a("--line", "err"), a("--no-line-number", "err"), a("--files-with", "err"), a("--count", "--no-count", "err"),
	}
}
