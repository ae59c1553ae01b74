package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/urfave/cli/v2"
)

// clusterBinaryName is the build of this command with the Weaviate client
// linked in. install.sh installs it beside git-bcindex, which is built
// without the client (`-tags nocluster`) and runs it for the cluster
// commands.
const clusterBinaryName = "git-bcindex-cluster"

var errNoClusterBinary = errors.New(clusterBinaryName + " not found")

// clusterBinary finds git-bcindex-cluster beside this executable, else on PATH.
func clusterBinary() (string, error) {
	where := "on PATH"
	if exe, err := os.Executable(); err == nil {
		p := filepath.Join(filepath.Dir(exe), clusterBinaryName)
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
		where = "beside " + exe + " or on PATH"
	}
	if p, err := exec.LookPath(clusterBinaryName); err == nil {
		return p, nil
	}
	return "", fmt.Errorf("the cluster commands run %s, the build with the Weaviate client: none %s: %w",
		clusterBinaryName, where, errNoClusterBinary)
}

// exitStatus carries a child's exit code out of run unchanged.
type exitStatus int

func (e exitStatus) Error() string { return fmt.Sprintf("exit status %d", int(e)) }

// runClusterBinary runs this command line with git-bcindex-cluster on the
// same terminal, and exits as it does.
func runClusterBinary(c *cli.Context) error {
	bin, err := clusterBinary()
	if err != nil {
		return err
	}
	args, _ := c.App.Metadata["args"].([]string)
	if len(args) == 0 {
		return fmt.Errorf("run %s: no command line", bin)
	}
	cmd := exec.CommandContext(c.Context, bin, args[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, c.App.Writer, c.App.ErrWriter
	// An interrupt reaches the child too; give it time to say what it kept.
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = 10 * time.Second
	err = cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) && ee.ExitCode() >= 0 {
		return exitStatus(ee.ExitCode())
	}
	if err != nil {
		return fmt.Errorf("run %s: %w", bin, err)
	}
	return nil
}
