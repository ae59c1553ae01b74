package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/bcindex/bcindex/internal/testkit/gittest"
)

// genFixture is a repository with a history git grep meets in real ones:
// a merge of a branch that renamed a file, binary files, non-ASCII text
// (Cyrillic, accents, the Kelvin sign and the long s, CJK, invalid
// UTF-8), CRLF, a file without a final newline, names that need quoting,
// and a working tree with unstaged, staged and untracked changes and
// changed sparse and assume-unchanged files.
func genFixture(t *testing.T) *gittest.Repo {
	r := gittest.New(t)
	r.Git("config", "core.autocrlf", "false")
	base := map[string]string{
		"src/main.go":             "package main\n\nimport \"fmt\"\n\nfunc main() {\n\terr := run()\n\tif err != nil {\n\t\tfmt.Println(err)\n\t}\n}\n\nfunc run() error {\n\treturn nil // foo bar\n}\n",
		"src/util.c":              "#include <stdio.h>\n\nint main(void)\n{\n\tint err = 0;\n\treturn err;\n}\n",
		"docs/ru.txt":             "СТРОКА1\nстрока2\nПривет мир\nошибка err\n",
		"docs/fr.txt":             "café crème\nÉcole élève\nnaïve façade\nCAFÉ\n",
		"docs/mixed.txt":          "Kelvin \u212A sign\nlong \u017Fs here\nstraße STRASSE\n日本語のテキスト\nemoji 🙂 here\n\u00a0nbsp\tand tab\n",
		"bin/blob.bin":            "\x00\x01binary err data\nmain more\n",
		"latin1.txt":              "caf\xe9 invalid\nplain err\n\xff\xfe main\n",
		"crlf.txt":                "err one\r\nfoo two\r\nmain three\r\n",
		"noeol.txt":               "first main\nmain last\nlast main",
		"words.txt":               "foo bar\nfoo_bar foo\nfoobar\n foo\nfoo-bar\nbarfoo\nFOO BAR\n\n",
		"rep.txt":                 "aab\nab\nb\naaab\nabab\nxx\nx\na-b\nabcabc\n",
		"with space/odd name.txt": "err in a spaced name\nmain\n",
		"quo\"te.txt":             "err in a quoted name\n",
		"ünï/ñame.txt":            "err in a non-ASCII name\nfoo\n",
		"back\\slash.txt":         "err\\n escaped main\n",
		".gitattributes":          "*.dat binary\n",
		"table.dat":               "err main in a binary-attributed file\n",
		"sparse.txt":              "sparse old err\n",
		"bounds.txt":              "éfoo\nfoo мир\nмирный\nКафé bar\n",
		"assumed.txt":             "assumed old err\n",
	}
	r.Commit("base", base)
	r.Git("tag", "v1")
	r.Git("checkout", "-q", "-b", "side")
	r.Git("mv", "docs/fr.txt", "docs/french.txt")
	r.Commit("side", map[string]string{"words.txt": base["words.txt"] + "side foo\n", "side.txt": "side err main\n"})
	r.Git("checkout", "-q", "main")
	r.Commit("main", map[string]string{"src/main.go": base["src/main.go"] + "\nfunc extra() { _ = \"err two\" }\n", "rep.txt": base["rep.txt"] + "aaab again\n"})
	r.Git("merge", "-q", "--no-ff", "-m", "merge side", "side")
	r.Git("mv", "noeol.txt", "renamed.txt")
	r.Commit("after", map[string]string{"docs/ru.txt": base["docs/ru.txt"] + "Ещё СТРОКА3\n"})
	r.Write(map[string]string{"src/util.c": base["src/util.c"] + "/* unstaged err */\n"})
	r.Write(map[string]string{"words.txt": base["words.txt"] + "staged foo\n"})
	r.Git("add", "words.txt")
	r.Write(map[string]string{"untracked.txt": "untracked err main foo\n"})
	// A sparse (skip-worktree) file and an assume-unchanged one, both
	// changed in the working tree: git reads neither's change without
	// --untracked, both with it.
	r.Git("update-index", "--skip-worktree", "sparse.txt")
	r.Git("update-index", "--assume-unchanged", "assumed.txt")
	r.Write(map[string]string{"sparse.txt": "sparse new err main\n", "assumed.txt": "assumed new err main\n"})
	return r
}

// genPatterns are the generator's patterns by syntax: what scripts and
// people type, and the corners of each syntax.
var genPatterns = map[string][]string{
	"-G": {"err", "main", "foo", `foo\|bar`, `\<foo\>`, `\bfoo`, `foo\b`, `^foo`, `bar$`, `a\+b`, `a*b`, `x\{2\}`, `\(ab\)\1`,
		`\(a\)*b`, `[[:upper:]]`, `[[:upper:]]\{2\}`, `[[:alpha:]]\+`, `[[:lower:]]\{3\}`, `\w\+`, `\W`, `\s`, `[^a-z ]`, `.`, `^.`,
		`caf.`, `é`, `[éè]`, `СТРОКА`, `строка`, "\\`main", `main\'`, "\\`first", `[[.-.]]`, `[[=e=]]`, `a\{,2\}b`, `x*\?`,
		`[[:digit:]]`, `[0-9]\+`, `err.*`, `^$`, `ß`, `s`, `k`, `\(foo\|bar\)\{2\}`, `[[:space:]]`, `[[:punct:]]`, `\Bfoo`,
		`^[[:alnum:]]*$`, `.\{4\}`, `[^[:alpha:]]`, `\w*é`, `one\r`, `ing\r$`, `\*`, `a\?b`, "*a", `[]a]`, `[a-c]\{2,\}`,
		`[[.hyphen.]]`, `\(a`, `a\{1`, `x**`, `\{1\}`, "\\`\\|^$", `a.b`, `\bмир`, `мир\>`, `\<foo`, `\Bfoo`, `\b[[:alpha:]]\+\b`, `é\b`},
	"-E": {"x+?", "a{,2}b", "a**b", "a{1}{2}b", `(a)\1`, "(foo|bar)+", "[[:upper:]]{4}", `\w+`, "foo|main", "^(int|func) ", "a+b",
		"(ab)*c", "é+", "[^[:alnum:] ]", ".{3}$", `\<foo`, `foo\>`, "o{2,}", "a??", "(|a)b", "()", "err|", "[[:lower:]]+$",
		"(a|ab)(c|bcd)", "x{0}", "a{3}", "^[^ ]+$", "СТРОКА[0-9]", "[а-я]+", "(foo|foobar)", "a{,}", "b$|^a", "{1}", "a{2,1}", `\<(foo|мир)\>`, `\bé`},
	"-P": {`\bfoo\b`, `(?<=foo)bar`, `foo(?=bar)`, `foo(?!bar)`, `(?<!_)bar`, `(a)\1`, `(?>a+)b`, `a++b`, `a\h*b`, `\h+`, `foo\s+bar`,
		`\d+`, `(?i)foo`, `\w+`, `[[:upper:]]`, `\p{Lu}`, `СТРОКА\d`, ".", `\Afirst`, `main\z`, `err(?= )`, `(?:foo|bar)+`,
		`[^\x00-\x7f]+`, "a{2}", `\x{e9}`, `^\s*$`, `(?<![a-z])foo`, `\bmain\b`, `[a-z]+?r`, `(\w)\1`, "caf.", `\S+$`, `a*+b`,
		`(?:a|b)++`, `\H+`, `x(?:y|z)?`, `main\Z`, `a\Kb`, `\Z`, `(?s)a.b`, `\R`, `(?x) a b`, `\Qa+\E`, `(?<n>a)\k<n>`},
	"-F": {"new", "old", "foo bar", "a+b", "[x]", "é", "СТРОКА", "err", "main", `\`, "(", "ß", "k", "S", "CAFÉ", "err\\n", "-", "foo_bar", " foo"},
}

// genOptions are the option sets the generator combines patterns with.
var genOptions = [][]string{
	{}, {"-n"}, {"-c"}, {"-l"}, {"-o"}, {"-i"}, {"-w"}, {"-v", "-c"}, {"-n", "-o"}, {"-i", "-n"}, {"-w", "-c"}, {"-A1", "-n"},
	{"-C1"}, {"--column", "-n"}, {"-h"}, {"-L"}, {"-z", "-n"}, {"-m1", "-n"}, {"--color=always", "-n"}, {"-i", "-o"},
	{"-i", "-c"}, {"-w", "-o"}, {"-I", "-c"}, {"-a", "-c"}, {"--heading", "-n"}, {"-B1"}, {"-q"}, {"-W"}, {"-p", "-n"},
	{"-A2", "-c"}, {"-v", "-n"}, {"-i", "-w", "-n"}, {"--color=always", "-o", "-i"}, {"-c", "--all-match", "-e", "err"},
	{"-n", "-e", "main", "--and"}, {"-l", "--not"}, {"-n", "-e", "foo"}, {"-o", "-e", "a"}, {"-m2", "-A1"},
}

// genRevisions are where the generated cases search.
var genRevisions = [][]string{{}, {}, {"HEAD"}, {"HEAD~1"}, {"HEAD~1^2"}, {"v1"}, {"--cached"}, {"--untracked"}}

// genCases draws n distinct command lines.
func genCases(n int) []grepCase {
	rng := rand.New(rand.NewPCG(49, 7))
	syntaxes := []string{"-G", "-G", "-E", "-P", "-F"}
	seen := map[string]bool{}
	var out []grepCase
	for tries := 0; len(out) < n && tries < 50*n; tries++ {
		syn := syntaxes[rng.IntN(len(syntaxes))]
		pool := genPatterns[syn]
		pat := pool[rng.IntN(len(pool))]
		args := []string{syn}
		args = append(args, genOptions[rng.IntN(len(genOptions))]...)
		args = append(args, "-e", pat)
		args = append(args, genRevisions[rng.IntN(len(genRevisions))]...)
		locale := "LC_ALL=C"
		if rng.IntN(2) == 0 {
			locale = "LC_ALL=C.UTF-8"
		}
		key := locale + "\x00" + strings.Join(args, "\x00")
		if seen[key] {
			continue
		}
		seen[key] = true
		out = append(out, grepCase{args: args, env: []string{locale}})
	}
	return out
}

// TestGrepGenerated compares generated command lines (patterns of every
// syntax, options, revisions and locales) between git grep and git
// bcindex grep over genFixture: stdout bytes and exit codes. A refusal
// (exit 128 where git answers) must say so on stderr; any other
// difference is a wrong answer and fails the test. At least 99.5% of the
// cases must be identical.
func TestGrepGenerated(t *testing.T) {
	r := genFixture(t)
	t.Setenv("HOME", r.Dir)
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("LC_ALL", "C")
	if code, _, errOut := runCLI(t, r.Dir, "index"); code != 0 {
		t.Fatalf("index: %s", errOut)
	}
	n := 1200
	if v, err := strconv.Atoi(os.Getenv("BCINDEX_GREP_CASES")); err == nil {
		n = v
	}
	cases := genCases(n)
	if len(cases) < 1000 && n >= 1000 {
		t.Fatalf("only %d distinct cases generated", len(cases))
	}
	same, refused := 0, 0
	var wrong []string
	for _, c := range cases {
		for _, kv := range c.env {
			k, v, _ := strings.Cut(kv, "=")
			os.Setenv(k, v)
		}
		name := strings.Join(c.env, " ") + " grep " + quoteArgs(c.args)
		wantOut, wantErr, wantCode := gitGrepRun(t, r.Dir, c.args)
		code, out, errOut := runCLI(t, r.Dir, append([]string{"grep"}, c.args...)...)
		switch {
		case code == wantCode && (out == wantOut || wantCode >= 128):
			same++
			if wantCode >= 128 && errOut == "" {
				t.Errorf("%s: git refused (%s) and nothing was said on stderr", name, strings.TrimSpace(wantErr))
			}
		case code == 128 && wantCode < 128 && strings.HasPrefix(errOut, "fatal: "):
			refused++
			t.Logf("refused: %s: %s", name, strings.TrimSpace(errOut))
		default:
			wrong = append(wrong, fmt.Sprintf("%s: exit %d, git's %d\n--- git grep\n%q\n--- git bcindex grep\n%q\n%s", name, code, wantCode, clip(wantOut), clip(out), clip(errOut)))
		}
	}
	pct := 100 * float64(same) / float64(len(cases))
	t.Logf("%d generated cases: %d identical (%.2f%%), %d refused, %d wrong", len(cases), same, pct, refused, len(wrong))
	for _, w := range wrong {
		t.Errorf("wrong answer: %s", w)
	}
	if pct < 99.5 {
		t.Errorf("%.2f%% of the cases identical, below 99.5%%", pct)
	}
}

func quoteArgs(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		q[i] = a
		if a == "" || strings.ContainsAny(a, " \t\n\\'\"*?[]()|$`<>{}&;") {
			q[i] = strconv.Quote(a)
		}
	}
	return strings.Join(q, " ")
}

func clip(s string) string {
	if len(s) > 600 {
		return s[:600] + "…"
	}
	return s
}

// TestGrepGeneratedCoverage: the generator covers what the suite is for.
func TestGrepGeneratedCoverage(t *testing.T) {
	cases := genCases(1200)
	count := func(f func(c grepCase) bool) int {
		n := 0
		for _, c := range cases {
			if f(c) {
				n++
			}
		}
		return n
	}
	has := func(s string) func(grepCase) bool {
		return func(c grepCase) bool { return slices.Contains(c.args, s) }
	}
	for name, f := range map[string]func(grepCase) bool{
		"-G": has("-G"), "-E": has("-E"), "-P": has("-P"), "-F": has("-F"), "HEAD~1^2 (a merge's parent)": has("HEAD~1^2"),
		"--cached": has("--cached"), "--untracked": has("--untracked"), "-i": has("-i"), "-o": has("-o"),
		"the UTF-8 locale": func(c grepCase) bool { return c.env[0] == "LC_ALL=C.UTF-8" },
		"the C locale":     func(c grepCase) bool { return c.env[0] == "LC_ALL=C" },
		"non-ASCII patterns": func(c grepCase) bool {
			return slices.ContainsFunc(c.args, func(a string) bool { return strings.ContainsFunc(a, func(r rune) bool { return r > 127 }) })
		},
	} {
		if n := count(f); n < 20 {
			t.Errorf("%d cases with %s", n, name)
		}
	}
}
