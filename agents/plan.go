package agents

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
)

// Options select what to change.
type Options struct {
	User bool // the user's files instead of the repository's
	// Agents names the agents; none: every supported agent's project file,
	// or, with User, every agent that looks installed.
	Agents []string
	// Instructions writes (install) the marked section into AGENTS.md and
	// CLAUDE.md, for the repository.
	Instructions bool
}

// Change is what happens to one file.
type Change struct {
	Agent  string // "" for an instruction file
	Path   string
	Before []byte // nil: the file does not exist
	After  []byte // nil: the file is removed (or stays absent)
	Note   string // why it stays as it is
	Err    error  // it could not be read or parsed
}

// Changed reports whether applying c writes anything.
func (c Change) Changed() bool {
	return c.Err == nil && ((c.Before == nil) != (c.After == nil) || !bytes.Equal(c.Before, c.After))
}

// Select returns the agents o names, or its defaults.
func Select(e Env, o Options) ([]Agent, error) {
	if len(o.Agents) == 0 {
		if !o.User {
			return All, nil
		}
		var out []Agent
		for _, a := range All {
			if a.Present(e) {
				out = append(out, a)
			}
		}
		return out, nil
	}
	var out []Agent
	for _, n := range o.Agents {
		a, ok := Find(n)
		if !ok {
			return nil, fmt.Errorf("no agent named %q: the agents are %s", n, Names())
		}
		out = append(out, a)
	}
	return out, nil
}

// Install plans registering the server with the selected agents.
func Install(e Env, o Options) ([]Change, error) {
	sel, err := Select(e, o)
	if err != nil {
		return nil, err
	}
	var out []Change
	for _, a := range sel {
		out = append(out, edit(a, a.Path(e, o.User), true))
	}
	if o.Instructions && !o.User {
		for _, name := range instructionFiles(sel) {
			p := filepath.Join(e.Root, name)
			before, err := read(p)
			c := Change{Path: p, Before: before, Err: err}
			if err == nil {
				c.After = installSection(before)
			}
			out = append(out, c)
		}
	}
	return out, nil
}

// Uninstall plans removing what Install added from the selected agents'
// files. An instruction file's section goes once no agent that reads the
// file keeps the server in the repository.
func Uninstall(e Env, o Options) ([]Change, error) {
	sel, err := Select(e, o)
	if err != nil {
		return nil, err
	}
	var out []Change
	leaving := map[string]bool{}
	for _, a := range sel {
		out = append(out, edit(a, a.Path(e, o.User), false))
		leaving[a.Name] = true
	}
	if o.User {
		return out, nil
	}
	kept := map[string]bool{} // instruction files an agent staying installed reads
	for _, a := range All {
		if !leaving[a.Name] {
			if data, err := read(a.Path(e, false)); err == nil && state(a, data) == ours {
				kept[a.Instructions] = true
			}
		}
	}
	for _, name := range instructionFiles(sel) {
		p := filepath.Join(e.Root, name)
		before, err := read(p)
		if kept[name] || before == nil {
			continue
		}
		c := Change{Path: p, Before: before, Err: err}
		if err == nil {
			c.After = uninstallSection(before)
		}
		out = append(out, c)
	}
	return out, nil
}

// edit plans one agent's file.
func edit(a Agent, path string, install bool) Change {
	before, err := read(path)
	c := Change{Agent: a.Name, Path: path, Before: before, After: before, Err: err}
	if err != nil {
		return c
	}
	var after []byte
	switch {
	case a.Key == "" && install:
		after, err = installTOML(before)
	case a.Key == "":
		after, err = uninstallTOML(before)
	case install:
		after, err = installJSON(a, before)
	default:
		after, err = uninstallJSON(a, before)
	}
	switch {
	case errors.Is(err, errNotOurs):
		c.Note = err.Error()
	case err != nil:
		c.Err = fmt.Errorf("read %s: %w", path, err)
	default:
		c.After = after
	}
	return c
}

// state is what data holds of a's entry; a file that does not parse holds
// nothing of ours.
func state(a Agent, data []byte) jsonState {
	var st jsonState
	if a.Key == "" {
		st, _ = stateTOML(data)
	} else {
		st, _ = stateJSON(a, data)
	}
	return st
}

// instructionFiles are the instruction files the agents read, sorted.
func instructionFiles(sel []Agent) []string {
	seen := map[string]bool{}
	var out []string
	for _, a := range sel {
		if !seen[a.Instructions] {
			seen[a.Instructions] = true
			out = append(out, a.Instructions)
		}
	}
	sort.Strings(out)
	return out
}

// read returns a file's content, nil when it does not exist.
func read(path string) ([]byte, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err == nil && data == nil {
		data = []byte{}
	}
	return data, err
}

// Apply writes the change: atomically (a temporary file in the same
// directory, renamed over the old one, with the old one's mode), or
// removes the file. top is the repository's top directory or, for a user
// file, the home directory: the directories install created under it for
// the file (.cursor, .config/Code/User, ...) go with the file when nothing
// else is left in them.
func (c Change) Apply(top string) error {
	if !c.Changed() {
		return nil
	}
	if c.After == nil {
		if err := os.Remove(c.Path); err != nil {
			return fmt.Errorf("remove %s: %w", c.Path, err)
		}
		removeEmptyDirs(filepath.Dir(c.Path), top)
		return nil
	}
	mode := fs.FileMode(0o644)
	if fi, err := os.Stat(c.Path); err == nil {
		mode = fi.Mode().Perm()
	}
	dir := filepath.Dir(c.Path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("write %s: %w", c.Path, err)
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(c.Path)+".bcindex-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", c.Path, err)
	}
	defer os.Remove(tmp.Name()) // after a failure; renamed away otherwise
	if _, err := tmp.Write(c.After); err != nil {
		tmp.Close()
		return fmt.Errorf("write %s: %w", c.Path, err)
	}
	if err := tmp.Chmod(mode); err != nil {
		tmp.Close()
		return fmt.Errorf("write %s: %w", c.Path, err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("write %s: %w", c.Path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write %s: %w", c.Path, err)
	}
	if err := os.Rename(tmp.Name(), c.Path); err != nil {
		return fmt.Errorf("write %s: %w", c.Path, err)
	}
	return nil
}

// removeEmptyDirs removes dir and its parents up to top (not top itself)
// while they are empty; nothing outside top.
func removeEmptyDirs(dir, top string) {
	if top == "" {
		return
	}
	for {
		rel, err := filepath.Rel(top, dir)
		if err != nil || rel == "." || !filepath.IsLocal(rel) {
			return
		}
		if os.Remove(dir) != nil {
			return // not empty (or not ours to remove)
		}
		dir = filepath.Dir(dir)
	}
}
