// Package hooks installs bcindex's git hooks and runs their background job.
//
// Installation follows git-lfs: the hooks directory is the one git uses
// (core.hooksPath when set), a hook bcindex did not write is never replaced,
// and bcindex's part of any hook is one marked block that a later install
// upgrades and uninstall removes byte for byte. The block only starts
// `git-bcindex hook run` in the background, so a hook can neither fail nor
// slow the git command, and it does nothing when the binary is not on PATH.
package hooks

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Names are the hooks bcindex installs: every way HEAD's tree changes.
var Names = []string{"post-commit", "post-merge", "post-checkout", "post-rewrite"}

// Version of the block; a block of another version is upgraded on install.
const Version = 1

const (
	beginMarker = "# >>> bcindex >>>"
	endMarker   = "# <<< bcindex <<<"
	createdMark = "# bcindex created this file; uninstall deletes it when nothing else is left."
	shebang     = "#!/bin/sh\n"
)

// ErrForeignHook is returned for an existing hook that bcindex cannot safely
// add its block to (not a shell script, or a symlink).
var ErrForeignHook = errors.New("existing hook is not a shell script bcindex can extend")

// Dir returns the directory git runs hooks from for the repository whose
// working tree (or, bare, git dir) is topDir and whose common git dir is
// commonDir: core.hooksPath (relative to topDir) when set, else
// commonDir/hooks. It asks git, so includes and global config count.
func Dir(topDir, commonDir string) (string, error) {
	out, err := exec.Command("git", "-C", topDir, "config", "--path", "--get", "core.hooksPath").Output()
	var ee *exec.ExitError
	if errors.As(err, &ee) && ee.ExitCode() == 1 {
		return filepath.Join(commonDir, "hooks"), nil // not set
	}
	if err != nil {
		return "", fmt.Errorf("read core.hooksPath: %w", err)
	}
	p := strings.TrimSpace(string(out))
	if p == "" {
		return filepath.Join(commonDir, "hooks"), nil
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(topDir, p)
	}
	return filepath.Clean(p), nil
}

// block is bcindex's part of hook name. `</dev/null` keeps post-rewrite's
// stdin for the rest of the hook; `&` returns to git before Go even starts.
func block(name string, created bool) string {
	var b strings.Builder
	b.WriteString(beginMarker + "\n")
	fmt.Fprintf(&b, "# Added by `git bcindex hooks install` (hook version %d); `git bcindex hooks uninstall` removes it.\n", Version)
	if created {
		b.WriteString(createdMark + "\n")
	}
	b.WriteString("# Keeps the bcindex search index fresh in the background; GIT_BCINDEX_SKIP=1 or\n")
	b.WriteString("# `git config bcindex.hooks false` turns it off. Exits quietly without git-bcindex.\n")
	b.WriteString(`if [ "${GIT_BCINDEX_SKIP:-0}" != 1 ] && command -v git-bcindex >/dev/null 2>&1; then` + "\n")
	fmt.Fprintf(&b, "\tgit-bcindex hook run %s \"$@\" </dev/null >/dev/null 2>&1 &\n", name)
	b.WriteString("fi\n")
	b.WriteString(endMarker + "\n")
	return b.String()
}

// findBlock returns the byte range of bcindex's block in a hook, including
// its final newline. ok is false when there is none; err when it is cut.
func findBlock(content []byte) (start, end int, ok bool, err error) {
	start = lineIndex(content, beginMarker)
	if start < 0 {
		return 0, 0, false, nil
	}
	rel := lineIndex(content[start:], endMarker)
	if rel < 0 {
		return 0, 0, false, fmt.Errorf("bcindex block has a start marker but no end marker %q", endMarker)
	}
	end = start + rel + len(endMarker)
	if end < len(content) && content[end] == '\n' {
		end++
	}
	return start, end, true, nil
}

// lineIndex finds line at the start of a line of content.
func lineIndex(content []byte, line string) int {
	for off := 0; off < len(content); {
		i := bytes.Index(content[off:], []byte(line))
		if i < 0 {
			return -1
		}
		i += off
		if i == 0 || content[i-1] == '\n' {
			return i
		}
		off = i + 1
	}
	return -1
}

// isShellScript reports whether a hook is interpreted by a POSIX-like shell
// (a hook without a shebang is run by git with sh).
func isShellScript(content []byte) bool {
	if !bytes.HasPrefix(content, []byte("#!")) {
		return true
	}
	line, _, _ := bytes.Cut(content[2:], []byte("\n"))
	fields := strings.Fields(string(line))
	if len(fields) == 0 {
		return false
	}
	interp := filepath.Base(fields[0])
	if interp == "env" && len(fields) > 1 {
		interp = fields[1]
	}
	switch interp {
	case "sh", "bash", "dash", "zsh", "ksh", "ash", "busybox":
		return true
	}
	return false
}

// insertAt is where the block goes in a foreign hook: right after the
// shebang line, so that an `exit` or `exec` in the hook cannot skip it.
func insertAt(content []byte) int {
	if !bytes.HasPrefix(content, []byte("#!")) {
		return 0
	}
	if i := bytes.IndexByte(content, '\n'); i >= 0 {
		return i + 1
	}
	return len(content)
}

// writeHook replaces a hook atomically with mode perm.
func writeHook(path string, data []byte, perm fs.FileMode) error {
	f, err := os.CreateTemp(filepath.Dir(path), ".bcindex-"+filepath.Base(path)+"-*")
	if err != nil {
		return fmt.Errorf("write hook %s: %w", path, err)
	}
	tmp := f.Name()
	_, werr := f.Write(data)
	if werr == nil {
		werr = f.Chmod(perm)
	}
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(tmp, path)
	}
	if werr != nil {
		os.Remove(tmp)
		return fmt.Errorf("write hook %s: %w", path, werr)
	}
	return nil
}
