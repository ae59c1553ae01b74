package main

import (
	"bytes"
	"fmt"
	"net"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bcindex/bcindex/internal/testkit/gittest"
)

// TestLeanBuildRunsClusterBinary builds git-bcindex as install.sh does,
// without the Weaviate client, and checks that it links none of it, that
// the cluster commands say what is missing when git-bcindex-cluster is
// not installed, and that they run it, with the same command line and
// exit code, once it is.
func TestLeanBuildRunsClusterBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds two binaries")
	}
	out, err := exec.Command("go", "list", "-deps", "-tags", "nocluster", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, dep := range strings.Fields(string(out)) {
		if strings.Contains(dep, "weaviate") || strings.Contains(dep, "bcindex/cluster") || strings.HasPrefix(dep, "google.golang.org/grpc") {
			t.Errorf("the nocluster build links %s", dep)
		}
	}
	bin := t.TempDir()
	lean := filepath.Join(bin, "git-bcindex")
	if out, err := exec.Command("go", "build", "-tags", "nocluster", "-o", lean, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build -tags nocluster: %v\n%s", err, out)
	}

	r := gittest.New(t)
	r.Commit("init", map[string]string{"store/repo.go": sample})
	l, _ := net.Listen("tcp", "127.0.0.1:0")
	dead := fmt.Sprintf("http://%s", l.Addr())
	l.Close()
	r.Git("config", "bcindex.remote.url", dead)
	cli := func(args ...string) (int, string, string) {
		var stdout, stderr bytes.Buffer
		cmd := exec.Command(lean, append([]string{"--dir", r.Dir}, args...)...)
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return code, stdout.String(), stderr.String()
	}

	if code, out, errOut := cli("search", "OpenRepository"); code != 0 || !strings.Contains(out, "store/repo.go") {
		t.Fatalf("local search with the lean build: exit %d: %s %s", code, out, errOut)
	}
	for _, args := range [][]string{{"publish"}, {"search", "--remote", "open the repository"}} {
		code, _, errOut := cli(args...)
		if code != 2 || !strings.Contains(errOut, "git-bcindex-cluster") || !strings.Contains(errOut, "install.sh") {
			t.Errorf("%v without git-bcindex-cluster: exit %d: %s", args, code, errOut)
		}
	}

	if out, err := exec.Command("go", "build", "-o", filepath.Join(bin, clusterBinaryName), ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	// The cluster binary's own errors, which the lean one cannot produce.
	code, _, errOut := cli("search", "--remote", "open the repository")
	if code != 2 || !strings.Contains(errOut, dead) || !strings.Contains(errOut, "cluster unreachable") {
		t.Errorf("search --remote through git-bcindex-cluster: exit %d: %s", code, errOut)
	}
	r.Git("config", "--unset", "bcindex.remote.url")
	code, _, errOut = cli("publish")
	if code != 2 || !strings.Contains(errOut, "git config bcindex.remote.url") || strings.Count(errOut, "error:") != 1 {
		t.Errorf("publish without a cluster through git-bcindex-cluster: exit %d: %s", code, errOut)
	}
}
