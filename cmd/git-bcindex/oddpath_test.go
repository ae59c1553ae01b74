package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/bcindex/bcindex/internal/testkit/gittest"
)

// oddRepo commits, with the git command line, files whose names git
// accepts but a file system or go-git would refuse: each holds one Go
// function named after it. It returns the names that must be indexed
// (function → exact path) and the number that must be skipped as bad-path.
func oddRepo(t *testing.T) (*gittest.Repo, map[string]string, int) {
	r := gittest.New(t)
	r.Commit("init", map[string]string{"plain.go": "package p\n\nfunc PlainFunc() {}\n"})
	blob := func(fn string) string {
		return r.GitInput(fmt.Sprintf("package p\n\nfunc %s() int { return %d }\n", fn, len(fn)), "hash-object", "-w", "--stdin")
	}
	indexed := map[string]string{
		"NewlineFunc": "weird\nname.go",
		"ControlFunc": "ctl\x01\x7fname.go",
		"InvalidFunc": "bad\xff\xfeutf8.go",
		"QuoteFunc":   `dir "q"/back\slash.go`,
	}
	for fn, p := range indexed {
		r.Git("update-index", "--add", "--cacheinfo", "100644,"+blob(fn)+","+p)
	}
	long := strings.Repeat("d/", 2100) + "long.go" // over MaxPathLen
	r.Git("update-index", "--add", "--cacheinfo", "100644,"+blob("LongFunc")+","+long)
	base := r.Git("write-tree")
	// Names update-index refuses: a `.GIT` directory and `git~1` (which
	// go-git's walker rejects as unsafe to check out), and "." and "..",
	// which only a hand-made tree holds.
	sub := r.GitInput("100644 blob "+blob("DotGitFunc")+"\tx.go\n", "mktree")
	dots := r.GitInput("100644 blob "+blob("DotDotFunc")+"\tx.go\n", "mktree")
	lines := strings.Split(strings.TrimRight(r.Git("ls-tree", "-z", base), "\x00"), "\x00")
	lines = append(lines,
		"040000 tree "+sub+"\t.GIT",
		"100644 blob "+blob("TildeFunc")+"\tgit~1",
		"040000 tree "+dots+"\t..",
		"100644 blob "+blob("DotFunc")+"\t.")
	root := r.GitInput(strings.Join(lines, "\x00")+"\x00", "mktree", "-z")
	commit := r.GitInput("odd names\n", "commit-tree", root, "-p", "HEAD")
	r.Git("update-ref", "HEAD", commit)
	indexed["DotGitFunc"] = ".GIT/x.go"
	indexed["TildeFunc"] = "git~1"
	return r, indexed, 3 // long.go, ./x.go (".."), "."
}

func TestOddPathsAreIndexedUnderTheirExactNames(t *testing.T) {
	r, indexed, badPaths := oddRepo(t)
	code, out, errOut := runCLI(t, r.Dir, "index")
	if code != 0 {
		t.Fatalf("index exit %d\nstdout: %s\nstderr: %s", code, out, errOut)
	}
	if want := fmt.Sprintf("bad-path %d", badPaths); !strings.Contains(out, want) {
		t.Errorf("index summary lacks %q:\n%s", want, out)
	}
	for fn, p := range indexed {
		mode := "symbol"
		if !strings.HasSuffix(p, ".go") {
			mode = "text" // a text chunk has no symbol
		}
		code, out, errOut := runCLI(t, r.Dir, "search", "--json", "--mode", mode, "-k", "1", fn)
		if code != 0 {
			t.Fatalf("search %s: exit %d: %s", fn, code, errOut)
		}
		var hit struct {
			Path      string `json:"path"`
			PathBytes []byte `json:"path_bytes"`
			Name      string `json:"name"`
		}
		if err := json.Unmarshal([]byte(strings.SplitN(out, "\n", 2)[0]), &hit); err != nil {
			t.Fatalf("search %s: %v: %s", fn, err, out)
		}
		got := hit.Path
		if hit.PathBytes != nil {
			got = string(hit.PathBytes)
		}
		if mode == "symbol" && hit.Name != fn || got != p {
			t.Errorf("search %s: hit %q at %q, want %q", fn, hit.Name, got, p)
		}
	}
	for _, fn := range []string{"LongFunc", "DotDotFunc", "DotFunc"} {
		if code, out, _ := runCLI(t, r.Dir, "search", "--json", "--mode", "symbol", fn); code == 0 && strings.Contains(out, `"name":"`+fn+`"`) {
			t.Errorf("%s is under a bad path but was indexed: %s", fn, out)
		}
	}
}

func TestOddPathsAreQuotedLikeGit(t *testing.T) {
	r, _, _ := oddRepo(t)
	if code, out, errOut := runCLI(t, r.Dir, "index"); code != 0 {
		t.Fatalf("index exit %d\n%s%s", code, out, errOut)
	}
	for fn, want := range map[string]string{
		"NewlineFunc": `"weird\nname.go":3-3`,
		"ControlFunc": `"ctl\001\177name.go":3-3`,
		"InvalidFunc": `"bad\377\376utf8.go":3-3`,
		"QuoteFunc":   `"dir \"q\"/back\\slash.go":3-3`,
	} {
		_, out, errOut := runCLI(t, r.Dir, "search", "--mode", "symbol", "-k", "1", fn)
		if !strings.HasPrefix(out, want) {
			t.Errorf("search %s prints\n%s%s\nwant it to start with %s", fn, out, errOut, want)
		}
	}
	// Git's own quoting is the reference.
	if got := r.Git("ls-files", "weird\nname.go"); got != `"weird\nname.go"` {
		t.Fatalf("git quotes the name as %s", got)
	}
	r.Git("config", "core.quotePath", "false")
	_, out, _ := runCLI(t, r.Dir, "search", "--mode", "symbol", "-k", "1", "InvalidFunc")
	if !strings.HasPrefix(out, "bad\xff\xfeutf8.go:3-3") {
		t.Errorf("with core.quotePath=false the name is shown as is, got:\n%s", out)
	}
	_, out, _ = runCLI(t, r.Dir, "status", "--errors")
	if !strings.Contains(out, "\"../x.go\"") && !strings.Contains(out, "../x.go\tskipped\tbad-path: the path has a \"..\" component") {
		t.Errorf("status --errors does not list ../x.go as skipped:\n%s", out)
	}
	if n := strings.Count(out, "\tskipped\tbad-path"); n != 3 {
		t.Errorf("status --errors lists %d bad paths, want 3:\n%s", n, out)
	}
}
