package pickaxe

import (
	"os/exec"
	"testing"
)

// git runs git in dir and returns its output, failing the test on error.
func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		msg := ""
		if ee, ok := err.(*exec.ExitError); ok {
			msg = string(ee.Stderr)
		}
		t.Fatalf("git %q: %v\n%s", args, err, msg)
	}
	return string(out)
}
