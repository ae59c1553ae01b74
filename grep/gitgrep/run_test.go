package gitgrep

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/bcindex/bcindex/indexer"
	"github.com/bcindex/bcindex/internal/testkit/gittest"
	"github.com/bcindex/bcindex/internal/testkit/indextest"
	"github.com/bcindex/bcindex/store"
)

// TestRunMatchesGit runs command lines through Parse and Run, with the
// index brought up to date as the command does, and through git grep in
// the same repository: the output and whether anything matched are the
// same. The working tree holds a change HEAD does not, so that the files
// read from disk and the blobs read from the index both answer.
func TestRunMatchesGit(t *testing.T) {
	r := gittest.New(t)
	r.Commit("init", map[string]string{
		"retry.go":      "package retry\n\n// Retry calls fn until it succeeds.\nfunc Retry(fn func() error, n int) error {\n\tvar err error\n\tfor i := 0; i < n; i++ {\n\t\tif err = fn(); err == nil {\n\t\t\treturn nil\n\t\t}\n\t}\n\treturn err\n}\n",
		"math.go":       "package retry\n\nfunc Add(a, b int) int { return a + b }\n\nfunc Mul(a, b int) int { return a * b }\n",
		"doc/notes.txt": "retry with backoff\nno RETRY here\nx\n",
	})
	r.Write(map[string]string{"math.go": "package retry\n\nfunc Add(a, b int) int { return a + b }\n\nfunc Sub(a, b int) int { return a - b }\n"})
	sameAsGit(t, r, [][]string{
		{"-n", "retry"},
		{"-c", "-i", "RETRY"},
		{"-l", "-e", "Add", "--or", "-e", "Sub"},
		{"-n", "-C1", "return"},
		{"--heading", "--break", "-n", "func"},
		{"-o", "-w", "err"},
		{"-v", "-c", "x"},
		{"-n", "Mul", "HEAD"},
		{"-h", "-E", "a [+*] b"},
		{"-L", "package"},
		{"--cached", "-n", "Mul", "--", "*.go"},
		{"nothing matches this"},
	})
}

// sameAsGit runs each command line through Parse and Run in r, with the
// index brought up to date as the command does, and through git grep: the
// output and whether anything matched are the same.
func sameAsGit(t *testing.T, r *gittest.Repo, lines [][]string) {
	t.Helper()
	repo := indextest.Open(t, r.Dir)
	env := func(stdout *bytes.Buffer) *Env {
		return &Env{
			Repo: repo, Top: repo.WorkTree, Stdout: stdout, Stderr: &bytes.Buffer{},
			WantColor: func(string) bool { return false },
			Quote:     func(p string) string { return p },
			Open: func(ctx context.Context, want store.Want, _, noUpdate bool) (*store.View, error) {
				v, _, err := indexer.NewIndexer(repo, indexer.Options{}).Ensure(ctx, want, indexer.Exact, time.Minute)
				return v, err
			},
		}
	}
	cfg, err := repo.Config()
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range lines {
		var out bytes.Buffer
		e := env(&out)
		e.Config = cfg
		o, err := Parse(args)
		if err == nil {
			err = Run(context.Background(), o, e)
		}
		matched := true
		if errors.Is(err, ErrNoMatch) {
			matched, err = false, nil
		}
		if err != nil {
			t.Errorf("%q: %v", args, err)
			continue
		}
		cmd := exec.Command("git", append([]string{"grep"}, args...)...)
		cmd.Dir = r.Dir
		want, gerr := cmd.Output()
		gitMatched := gerr == nil
		var ee *exec.ExitError
		if gerr != nil && !(errors.As(gerr, &ee) && ee.ExitCode() == 1) {
			t.Fatalf("git grep %q: %v", args, gerr)
		}
		if out.String() != string(want) || matched != gitMatched {
			t.Errorf("%q: matched %v, git %v\ngot:\n%s\ngit grep:\n%s", args, matched, gitMatched, out.String(), want)
		}
		if strings.Contains(out.String(), "\x1b[") {
			t.Errorf("%q: colour with WantColor false:\n%q", args, out.String())
		}
	}
}

// TestRunLargeFileMatchesGit: a file large enough to be indexed in pieces
// answers as git grep does, at the pieces' ends too, for a line-local
// pattern, -i with the Kelvin sign, and --all-match and --and, whose
// patterns are in different pieces.
func TestRunLargeFileMatchesGit(t *testing.T) {
	var b strings.Builder
	const n = 60000 // about 2.4 MB
	for i := 0; i < n; i++ {
		switch i {
		case n / 100:
			b.WriteString("alpha_key starts here\n")
		case n / 2:
			b.WriteString("the \u212Aelvin_mark line\n")
		case n - n/100:
			b.WriteString("omega_key ends here\n")
		}
		fmt.Fprintf(&b, "row %d filler text of the boundary_%d end\n", i, i%977)
	}
	r := gittest.New(t)
	r.Commit("init", map[string]string{"big.txt": b.String(), "small.txt": "alpha_key\n"})
	sameAsGit(t, r, [][]string{
		{"-n", "alpha_key"},
		{"-n", "omega_key", "HEAD"},
		{"-c", "-i", "KELVIN_MARK"},
		{"--all-match", "-n", "-e", "alpha_key", "-e", "omega_key"},
		{"-l", "-e", "alpha_key", "--and", "-e", "omega_key"},
		{"-c", "-E", "boundary_(1|976) end"},
		{"-c", "filler"},
		{"-L", "omega_key"},
	})
}
