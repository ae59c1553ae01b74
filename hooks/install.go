package hooks

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Actions reported by Install and Uninstall.
const (
	ActionCreated  = "created"
	ActionAdded    = "added to the existing hook"
	ActionUpgraded = "upgraded"
	ActionUpToDate = "up to date"
	ActionRemoved  = "removed (file deleted)"
	ActionStripped = "removed from the hook; the rest is untouched"
	ActionNotThere = "not installed"
	ActionForeign  = "refused"
	ActionNotExec  = "added, but the hook is not executable, so git ignores it"
)

// Result is what happened to one hook.
type Result struct {
	Name, Path, Action string
}

// ForeignHookError says which hook could not be extended and how to add the
// call by hand, in the hook's language (Lang; "" for shell or unknown).
type ForeignHookError struct {
	Path, Reason, Lang, Manual string
}

func (e *ForeignHookError) Error() string {
	what := "these lines"
	if e.Lang != "" {
		what = "these " + e.Lang + " lines"
	} else if strings.HasPrefix(e.Manual, "a call") {
		what = e.Manual[:strings.IndexByte(e.Manual, '\n')]
		return fmt.Sprintf("%s: %s; add to it %s%s", e.Path, e.Reason, what, e.Manual[len(what):])
	}
	return fmt.Sprintf("%s: %s; add %s to %s yourself:\n%s", e.Path, e.Reason, what, e.Path, e.Manual)
}

// foreign returns the error for a hook bcindex will not edit; content is
// what the hook (or the file a symlink names) holds, nil when unreadable.
func foreign(path, name, reason string, content []byte) *ForeignHookError {
	lang, manual := manualStep(name, content)
	return &ForeignHookError{Path: path, Reason: reason, Lang: lang, Manual: manual}
}

func (e *ForeignHookError) Unwrap() error { return ErrForeignHook }

// Install adds bcindex's block to every hook in dir, creating hooks that do
// not exist and upgrading older blocks. Hooks that cannot be extended are
// reported in the returned error; the others are installed anyway.
func Install(dir string) ([]Result, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("create hooks directory: %w", err)
	}
	var results []Result
	var errs []error
	for _, name := range Names {
		path := filepath.Join(dir, name)
		action, err := installOne(path, name)
		if err != nil {
			errs = append(errs, err)
			action = ActionForeign
		}
		results = append(results, Result{Name: name, Path: path, Action: action})
	}
	return results, errors.Join(errs...)
}

func installOne(path, name string) (string, error) {
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return ActionCreated, writeHook(path, []byte(shebang+block(name, true)), 0o755)
	}
	if err != nil {
		return "", fmt.Errorf("install hook: %w", err)
	}
	if fi.Mode()&fs.ModeSymlink != 0 || !fi.Mode().IsRegular() {
		target, _ := os.ReadFile(path) // the language of what it points to, if readable
		return "", foreign(path, name, "is a symlink or not a regular file", target)
	}
	content, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("install hook: %w", err)
	}
	start, end, ok, err := findBlock(content)
	if err != nil {
		return "", fmt.Errorf("install hook %s: %w", path, err)
	}
	if ok {
		created := bytes.Contains(content[start:end], []byte(createdMark))
		want := block(name, created)
		if string(content[start:end]) == want {
			return ActionUpToDate, nil
		}
		next := append(append(append([]byte(nil), content[:start]...), want...), content[end:]...)
		return ActionUpgraded, writeHook(path, next, fi.Mode().Perm())
	}
	if !isShellScript(content) {
		return "", foreign(path, name, "is not a shell script", content)
	}
	at := insertAt(content)
	ins := block(name, false)
	if at == len(content) && at > 0 && content[at-1] != '\n' {
		ins = "\n" + ins
	}
	next := append(append(append([]byte(nil), content[:at]...), ins...), content[at:]...)
	if err := writeHook(path, next, fi.Mode().Perm()); err != nil {
		return "", err
	}
	if fi.Mode().Perm()&0o111 == 0 {
		return ActionNotExec, nil
	}
	return ActionAdded, nil
}

// Uninstall removes exactly bcindex's block from every hook in dir, and
// deletes a hook file bcindex created once nothing else is left in it.
func Uninstall(dir string) ([]Result, error) {
	var results []Result
	var errs []error
	for _, name := range Names {
		path := filepath.Join(dir, name)
		action, err := uninstallOne(path)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		results = append(results, Result{Name: name, Path: path, Action: action})
	}
	return results, errors.Join(errs...)
}

func uninstallOne(path string) (string, error) {
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return ActionNotThere, nil
	}
	if err != nil {
		return "", fmt.Errorf("uninstall hook: %w", err)
	}
	if !fi.Mode().IsRegular() {
		return ActionNotThere, nil
	}
	content, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("uninstall hook: %w", err)
	}
	start, end, ok, err := findBlock(content)
	if err != nil {
		return "", fmt.Errorf("uninstall hook %s: %w", path, err)
	}
	if !ok {
		return ActionNotThere, nil
	}
	created := bytes.Contains(content[start:end], []byte(createdMark))
	rest := append(append([]byte(nil), content[:start]...), content[end:]...)
	if created && strings.TrimSpace(string(rest)) == strings.TrimSpace(shebang) {
		if err := os.Remove(path); err != nil {
			return "", fmt.Errorf("uninstall hook: %w", err)
		}
		return ActionRemoved, nil
	}
	return ActionStripped, writeHook(path, rest, fi.Mode().Perm())
}

// Hook is the state of one hook bcindex installs.
type Hook struct {
	Name       string `json:"name"`
	Path       string `json:"path"`
	Installed  bool   `json:"installed"`  // bcindex's block is present
	Current    bool   `json:"current"`    // ... and is this version's
	Executable bool   `json:"executable"` // git runs it
	Foreign    bool   `json:"foreign"`    // the hook holds more than bcindex's block
}

// Status reports every hook bcindex installs.
func Status(dir string) ([]Hook, error) {
	var out []Hook
	for _, name := range Names {
		st := Hook{Name: name, Path: filepath.Join(dir, name)}
		content, err := os.ReadFile(st.Path)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("hook status: %w", err)
		}
		if err == nil {
			if fi, err := os.Stat(st.Path); err == nil {
				st.Executable = fi.Mode().Perm()&0o111 != 0
			}
			start, end, ok, _ := findBlock(content)
			st.Installed = ok
			if ok {
				created := bytes.Contains(content[start:end], []byte(createdMark))
				st.Current = string(content[start:end]) == block(name, created)
				content = append(content[:start:start], content[end:]...)
			}
			st.Foreign = strings.TrimSpace(string(content)) != "" && strings.TrimSpace(string(content)) != strings.TrimSpace(shebang)
		}
		out = append(out, st)
	}
	return out, nil
}

// Installed reports whether every bcindex hook in dir is installed and
// executable.
func Installed(dir string) bool {
	sts, err := Status(dir)
	if err != nil {
		return false
	}
	for _, st := range sts {
		if !st.Installed || !st.Executable {
			return false
		}
	}
	return true
}
