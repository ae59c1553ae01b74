package main

import (
	"bytes"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/bcindex/bcindex/internal/testkit/gittest"
)

// pickaxeWords are what the generated history's lines hold: plain and
// mixed-case words, non-ASCII text, punctuation a regex reads.
var pickaxeWords = []string{"alpha", "Beta", "gamma_delta", "СТРОКА1", "café", "TODO", "foo(bar)", "x := 1",
	"naïve", "retry", "Retry", "BACKOFF", "end."}

// pickaxeFiles are the paths it edits: odd names among them.
var pickaxeFiles = []string{"src/main.go", "docs/read me.md", "-dash.txt", "ünï/cödé.txt", "lib/util.c", "tab\tname.txt"}

// pickaxeHistory makes a history with a merged side branch, an unmerged
// topic branch, renames, deletions, binary files and non-ASCII text, each
// commit a day after the last.
func pickaxeHistory(t *testing.T, seed int64) *gittest.Repo {
	r := gittest.New(t)
	rng := rand.New(rand.NewSource(seed))
	day := 0
	files := map[string][]string{}
	names := append([]string{}, pickaxeFiles...)
	commit := func(msg string) {
		day++
		for _, p := range names {
			if lines, ok := files[p]; ok {
				r.Write(map[string]string{p: strings.Join(lines, "\n") + "\n"})
			}
		}
		r.Git("add", "-A")
		r.CommitAt(fmt.Sprintf("2024-01-%02dT%02d:00:00Z", 1+day/24, day%24), msg, nil)
	}
	edit := func() {
		p := names[rng.Intn(len(names))]
		lines := files[p]
		switch k := rng.Intn(4); {
		case k < 2 || len(lines) == 0:
			w := pickaxeWords[rng.Intn(len(pickaxeWords))]
			at := rng.Intn(len(lines) + 1)
			lines = append(lines[:at], append([]string{fmt.Sprintf("line %d %s", rng.Intn(100), w)}, lines[at:]...)...)
		case k == 2:
			at := rng.Intn(len(lines))
			lines = append(lines[:at], lines[at+1:]...)
		default:
			at := rng.Intn(len(lines))
			lines[at] = strings.ToUpper(lines[at])
		}
		files[p] = lines
	}
	if seed%2 == 0 {
		// Attributes git reads from the work tree: .txt files are binary
		// to its diff, so -G passes them over.
		r.Write(map[string]string{".gitattributes": "*.txt -diff\n"})
	}
	binary := func(w string) {
		r.Write(map[string]string{"data/blob.bin": "\x00\x01" + w + "\x00" + strings.Repeat("z", rng.Intn(50))})
	}
	rename := func() {
		i := rng.Intn(len(names))
		if _, ok := files[names[i]]; !ok {
			return
		}
		to := fmt.Sprintf("moved/%d %s", day, strings.ReplaceAll(names[i], "/", "_"))
		if err := os.MkdirAll(r.Dir+"/moved", 0o755); err != nil {
			t.Fatal(err)
		}
		r.Git("mv", "--", names[i], to)
		files[to] = files[names[i]]
		delete(files, names[i])
		names[i] = to
	}
	for i := 0; i < 25; i++ {
		if i%7 == 3 {
			rename() // of a committed file, edited below too
		}
		for n := 1 + rng.Intn(3); n > 0; n-- {
			edit()
		}
		switch {
		case i%5 == 2:
			binary(pickaxeWords[rng.Intn(len(pickaxeWords))])
		case i == 16:
			p := names[0]
			if _, ok := files[p]; ok {
				r.Git("rm", "-q", p)
				delete(files, p)
			}
		}
		commit(fmt.Sprintf("main %d: %s", i, pickaxeWords[i%len(pickaxeWords)]))
		if i == 8 {
			// A side branch, merged later; its commits are off the
			// first-parent history.
			r.Git("branch", "side")
		}
		if i == 14 {
			r.Git("checkout", "-q", "side")
			reload(files, &names, r)
			for j := 0; j < 4; j++ {
				extra := fmt.Sprintf("side/s%d.txt", j%2)
				names = append(names, extra)
				files[extra] = append(files[extra], "side "+pickaxeWords[(j*5)%len(pickaxeWords)])
				commit(fmt.Sprintf("side %d", j))
			}
			r.Git("checkout", "-q", "main")
			day++
			r.Git("merge", "-q", "--no-ff", "-m", "merge side", "side")
			reload(files, &names, r)
		}
	}
	r.Git("checkout", "-q", "-b", "topic")
	for j := 0; j < 3; j++ {
		edit()
		commit(fmt.Sprintf("topic %d", j))
	}
	r.Git("checkout", "-q", "main")
	return r
}

// reload reads the text files of the checked-out commit back.
func reload(files map[string][]string, names *[]string, r *gittest.Repo) {
	for k := range files {
		delete(files, k)
	}
	tracked := strings.Split(r.Git("-c", "core.quotePath=false", "ls-files", "-z"), "\x00")
	seen := map[string]bool{}
	for _, p := range tracked {
		if p == "" || strings.HasPrefix(p, "data/") {
			continue
		}
		b, err := os.ReadFile(r.Dir + "/" + p)
		if err != nil {
			continue
		}
		files[p] = strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
		seen[p] = true
	}
	kept := (*names)[:0]
	for _, p := range *names {
		if seen[p] {
			kept = append(kept, p)
		}
	}
	for p := range seen {
		found := false
		for _, q := range kept {
			found = found || q == p
		}
		if !found {
			kept = append(kept, p)
		}
	}
	*names = kept
}

// pickaxePatterns are the -S and -G arguments of the generated cases.
var pickaxePatterns = [][]string{
	{"-S", "alpha"}, {"-S", "Beta"}, {"-S", "beta", "-i"}, {"-S", "СТРОКА1"}, {"-S", "café"}, {"-S", "TODO"},
	{"-S", "foo(bar)"}, {"-S", "zzz-never"}, {"-S", "e"}, {"-Sretry"}, {"-S", "BACKOFF", "-i"},
	{"-S", "gam+a", "--pickaxe-regex"}, {"-S", "line [0-9]+ R", "--pickaxe-regex"},
	{"-G", "alph[a-z]"}, {"-G", "^line 1"}, {"-G", "caf."}, {"-G", `foo\(bar\)`}, {"-G", "Beta|gamma"},
	{"-G", "СТРОКА"}, {"-G", "a("}, {"-G", "retry", "-i"}, {"-Gend\\."},
}

// pickaxeOptionSets are the rest of each case: output, walk and paths.
var pickaxeOptionSets = [][]string{
	{}, {"--oneline"}, {"--format=%H %an %ad %s"}, {"-p"}, {"--stat"}, {"--name-only"}, {"--name-status"},
	{"-n", "2", "--oneline"}, {"--first-parent", "--oneline"}, {"--all", "--oneline"},
	{"HEAD~6..HEAD", "--oneline"}, {"--since=2024-01-02", "--oneline"}, {"--author=Test", "--format=%h"},
	{"--pickaxe-all", "--name-only"}, {"--oneline", "--", "src"}, {"--oneline", "--", ".", ":(exclude)*.bin"},
	{"--reverse", "--oneline"}, {"--no-renames", "--oneline"}, {"--oneline", "side"}, {"-3", "-p"},
	{"--graph", "--oneline"}, {"--first-parent", "-p", "--", "moved"}, {"--pretty=fuller", "main~3"},
	{"--oneline", "--", "nowhere"}, {"--oneline", "not-a-rev"}, {"--until=2024-01-01T12:00:00Z", "--oneline"},
}

// TestLogPickaxeDifferential generates log -S/-G calls over histories made
// here and compares their stdout and exit code with git log's.
func TestLogPickaxeDifferential(t *testing.T) {
	routes := map[string]int{}
	checked, decided := 0, 0
	logRoute = func(route string, d, c int) { routes[route]++; decided += d; checked += c }
	defer func() { logRoute = nil }()
	cases, same := 0, 0
	for _, seed := range []int64{1, 2} {
		r := pickaxeHistory(t, seed)
		if code, _, errOut := runCLI(t, r.Dir, "index", "--history", "200"); code != 0 {
			t.Fatalf("index: exit %d\n%s", code, errOut)
		}
		for i, pat := range pickaxePatterns {
			for k := 0; k < 3; k++ {
				opts := pickaxeOptionSets[(i*3+k+int(seed)*7)%len(pickaxeOptionSets)]
				args := append(append([]string{}, pat...), opts...)
				cases++
				wantOut, wantCode := gitLog(t, r.Dir, args)
				code, out, errOut := runCLI(t, r.Dir, append([]string{"log"}, args...)...)
				if code == wantCode && out == wantOut {
					same++
					continue
				}
				// LOGDIFF_KEEP=DIR keeps the history of a differing case there.
				if k := os.Getenv("LOGDIFF_KEEP"); k != "" {
					exec.Command("cp", "-a", r.Dir, fmt.Sprintf("%s/seed%d", k, seed)).Run()
				}
				t.Errorf("log %q (seed %d): exit %d, git %d\n--- bcindex\n%s%s--- git\n%s", args, seed, code, wantCode, out, errOut, wantOut)
			}
		}
	}
	t.Logf("%d of %d cases identical; answered by the index %d times (%d commits decided, %d checked by git), by git alone %d",
		same, cases, routes["index"], decided, checked, routes["git"])
	if cases < 100 {
		t.Errorf("%d cases, want at least 100", cases)
	}
	// The cases must exercise the index's answers, not only git's.
	if routes["index"] < cases/2 || decided == 0 {
		t.Errorf("the index answered %d of %d cases, deciding %d commits", routes["index"], cases, decided)
	}
}

// gitLog runs git log args in dir and returns its stdout and exit code.
func gitLog(t *testing.T, dir string, args []string) (string, int) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"log"}, args...)...)
	cmd.Dir = dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, new(bytes.Buffer)
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return out.String(), ee.ExitCode()
	} else if err != nil {
		t.Fatalf("git log %q: %v", args, err)
	}
	return out.String(), 0
}

// TestLogPickaxeShallow indexes the history of a shallow clone whose
// boundary cuts the merged side branch, and compares log -S/-G, with and
// without --first-parent, and bcindex's own view with git log's.
func TestLogPickaxeShallow(t *testing.T) {
	src := pickaxeHistory(t, 1)
	// Depth 13 keeps the last two commits of the side branch: the older
	// is at the boundary, its parent not in the clone.
	dir := t.TempDir() + "/shallow"
	if out, err := exec.Command("git", "clone", "--quiet", "--depth", "13", "file://"+src.Dir, dir).CombinedOutput(); err != nil {
		t.Fatalf("clone: %v\n%s", err, out)
	}
	boundary, err := os.ReadFile(dir + "/.git/shallow")
	if err != nil {
		t.Fatal(err)
	}
	clone := gittest.At(t, dir)
	line := clone.Git("rev-list", "--first-parent", "HEAD")
	var side []string
	for _, h := range strings.Fields(clone.Git("rev-list", "--no-merges", "HEAD")) {
		if !strings.Contains(line, h) {
			side = append(side, h)
		}
	}
	if len(side) != 2 || !strings.Contains(string(boundary), side[1]) {
		t.Fatalf("the clone's boundary %q does not cut the side branch %q", boundary, side)
	}
	if code, _, errOut := runCLI(t, dir, "index", "--history", "200"); code != 0 {
		t.Fatalf("index --history of a shallow clone: exit %d\n%s", code, errOut)
	}
	routes := map[string]int{}
	logRoute = func(route string, d, c int) { routes[route]++ }
	defer func() { logRoute = nil }()
	for _, pat := range pickaxePatterns {
		for _, opts := range [][]string{{"--oneline"}, {"--first-parent", "--format=%H %s"}, {"--stat"}} {
			args := append(append([]string{}, pat...), opts...)
			wantOut, wantCode := gitLog(t, dir, args)
			code, out, errOut := runCLI(t, dir, append([]string{"log"}, args...)...)
			if code != wantCode || out != wantOut {
				t.Errorf("log %q: exit %d, git %d\n--- bcindex\n%s%s--- git\n%s", args, code, wantCode, out, errOut, wantOut)
			}
		}
	}
	if routes["index"] == 0 {
		t.Errorf("the index answered none of the calls: %v", routes)
	}
	// bcindex's own view: the first-parent commits git log --first-parent
	// --no-renames lists.
	for _, pat := range [][]string{{"-S", "alpha"}, {"-S", "TODO"}, {"-G", "^line 1"}, {"-S", "side"}} {
		wantOut, _ := gitLog(t, dir, append([]string{"--first-parent", "--no-renames", "--format=%H"}, pat...))
		code, out, errOut := runCLI(t, dir, append([]string{"log", "--json"}, pat...)...)
		var got []string
		for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
			if h, ok := strings.CutPrefix(line, `{"commit":"`); ok && len(h) >= 40 {
				got = append(got, h[:40])
			}
		}
		want := strings.Fields(wantOut)
		if strings.Join(got, " ") != strings.Join(want, " ") || (code == 0) != (len(want) > 0) {
			t.Errorf("log --json %q: exit %d, commits %v, git log --first-parent %v\n%s", pat, code, got, want, errOut)
		}
	}
}
