package main

import (
	"io"
	"strings"
	"testing"

	"github.com/bcindex/bcindex/internal/testkit/gittest"
)

func TestInterspersedFlags(t *testing.T) {
	app := newApp(io.Discard, io.Discard)
	cases := []struct{ in, want string }{
		{"git-bcindex search retry -k 5 --json", "git-bcindex search -k 5 --json -- retry"},
		{"git-bcindex --dir /r search parse the file --mode text", "git-bcindex --dir /r search --mode text -- parse the file"},
		{"git-bcindex search --json -- -k is text", "git-bcindex search --json -- -k is text"},
		{"git-bcindex index main --json", "git-bcindex index --json -- main"},
		{"git-bcindex search --path=a/** q", "git-bcindex search --path=a/** -- q"},
		{"git-bcindex status", "git-bcindex status"},
		{"git-bcindex hooks install", "git-bcindex hooks install"},
	}
	for _, c := range cases {
		got := strings.Join(interspersed(app, strings.Fields(c.in)), " ")
		if got != c.want {
			t.Errorf("interspersed(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestFlagsAfterQuery(t *testing.T) {
	r := gittest.New(t)
	r.Commit("init", map[string]string{"store/repo.go": sample})
	code, out, errOut := runCLI(t, r.Dir, "search", "OpenRepository", "-k", "1", "--json")
	if code != 0 || strings.Count(strings.TrimSpace(out), "\n") != 0 || !strings.Contains(out, `"name":"OpenRepository"`) {
		t.Fatalf("search with flags after the query: exit %d\n%s\n%s", code, out, errOut)
	}
}
