package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"

	"github.com/rogpeppe/go-internal/testscript"
	"golang.org/x/sys/unix"
)

// ptyEnv are the variables a pty command passes on from the script.
var ptyEnv = []string{"PATH", "HOME", "TERM", "NO_COLOR", "PAGER", "GIT_PAGER", "LESS", "GIT_CONFIG_NOSYSTEM",
	"GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL"}

// cmdPty runs a command with its stdout and stderr on a new
// pseudo-terminal, as if typed into one, and makes what the terminal showed
// (carriage returns removed) the script's stdout.
func cmdPty(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) == 0 {
		ts.Fatalf("usage: pty command [args...]")
	}
	master, slave, err := openPty()
	if err != nil {
		ts.Fatalf("open pty: %v", err)
	}
	defer master.Close()
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Dir = ts.MkAbs(".")
	for _, k := range ptyEnv {
		if v := ts.Getenv(k); v != "" {
			cmd.Env = append(cmd.Env, k+"="+v)
		}
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = slave, slave, slave
	if err := cmd.Start(); err != nil {
		slave.Close()
		ts.Fatalf("start %s: %v", args[0], err)
	}
	slave.Close()
	var out bytes.Buffer
	_, rerr := io.Copy(&out, master) // ends with EIO once the command exits
	werr := cmd.Wait()
	if rerr != nil && !errors.Is(rerr, syscall.EIO) {
		ts.Fatalf("read pty: %v", rerr)
	}
	fmt.Fprint(ts.Stdout(), strings.ReplaceAll(out.String(), "\r", ""))
	if (werr != nil) != neg {
		ts.Fatalf("pty %s: exit %v (negated: %v)\n%s", args[0], werr, neg, out.String())
	}
}

// openPty opens a pseudo-terminal pair (Linux /dev/ptmx).
func openPty() (master, slave *os.File, err error) {
	master, err = os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil, nil, err
	}
	fd := int(master.Fd())
	if err := unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0); err != nil {
		master.Close()
		return nil, nil, fmt.Errorf("unlock pty: %w", err)
	}
	n, err := unix.IoctlGetInt(fd, unix.TIOCGPTN)
	if err != nil {
		master.Close()
		return nil, nil, fmt.Errorf("pty number: %w", err)
	}
	slave, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		master.Close()
		return nil, nil, err
	}
	return master, slave, nil
}
