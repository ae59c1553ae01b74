//go:build !windows

package hooks

import (
	"os/exec"
	"syscall"
)

// detach starts cmd in a session of its own, so that the hook's terminal
// and process group (a Ctrl-C in the shell that ran git) do not reach it.
func detach(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true} }
