package gitindex

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/gitattributes"
)

// DiffDriver is what a path's diff attribute says, as git grep reads it:
// whether the file is binary (-diff or binary: always; diff: never;
// otherwise by content) and the name of its diff driver, whose function
// lines -p and -W show.
type DiffDriver struct {
	Binary int    // 1 binary, 0 text, -1 decided by content
	Name   string // diff=NAME, or ""
}

// Attributes answers git attribute lookups for paths of the working tree,
// from its .gitattributes files (read from the working tree, or staged
// where the working tree lacks one), $GIT_DIR/info/attributes and
// core.attributesFile, in git's order of precedence.
type Attributes struct {
	m gitattributes.Matcher
}

// WorktreeAttributes reads the attribute files git grep consults: those of
// the working tree at files (the paths of .gitattributes files the caller
// found in what it searches, from the top, read from the working tree or
// else staged), $GIT_DIR/info/attributes and core.attributesFile. With
// none, it returns nil, whose lookups say nothing.
func (r *Repo) WorktreeAttributes(files []string) (*Attributes, error) {
	return r.worktreeAttributes(files, []string{"diff", "binary"})
}

// WorktreeAttributesOf is WorktreeAttributes for the lookups of Values
// of the attributes named.
func (r *Repo) WorktreeAttributesOf(files, names []string) (*Attributes, error) {
	return r.worktreeAttributes(files, append(slices.Clone(names), "binary"))
}

func (r *Repo) worktreeAttributes(files, names []string) (*Attributes, error) {
	var stack []gitattributes.MatchAttribute
	read := func(b []byte, domain []string) {
		attrs, err := gitattributes.ReadAttributes(strings.NewReader(string(b)), domain, len(domain) == 0)
		if err == nil {
			stack = append(stack, attrs...)
		}
	}
	if cfg, err := r.Config(); err == nil {
		if f := cfg.Raw.Section("core").Option("attributesFile"); f != "" {
			if b, err := os.ReadFile(expandHome(f)); err == nil {
				read(b, nil)
			}
		}
	}
	if r.WorkTree != "" && len(files) > 0 {
		var staged map[string]IndexEntry // read when a file is not in the working tree
		// In path order a directory's file comes before its
		// subdirectories': lower precedence first, as the matcher wants.
		files = slices.Clone(files)
		slices.Sort(files)
		for _, p := range slices.Compact(files) {
			b, err := os.ReadFile(r.worktreePath(p))
			if err != nil {
				if staged == nil {
					staged = map[string]IndexEntry{}
					if idx, err := r.ReadGitIndex(); err == nil {
						for _, e := range idx.Entries {
							if e.Stage == 0 && IsAttributesFile(e.Path) {
								staged[e.Path] = e
							}
						}
					}
				}
				e, ok := staged[p]
				if !ok {
					continue
				}
				if b, err = r.ReadBlob(e.Blob); err != nil {
					continue
				}
			}
			var domain []string
			if dir := filepath.ToSlash(filepath.Dir(p)); dir != "." {
				domain = strings.Split(dir, "/")
			}
			read(b, domain)
		}
	}
	if b, err := os.ReadFile(filepath.Join(r.CommonDir, "info", "attributes")); err == nil {
		read(b, nil)
	}
	// Only lines that can set diff or binary (or a macro that may) are
	// worth matching each path against.
	macros := map[string]bool{}
	for _, m := range stack {
		if m.Pattern == nil {
			macros[m.Name] = true
		}
	}
	var keep []gitattributes.MatchAttribute
	for _, m := range stack {
		for _, a := range m.Attributes {
			if n := a.Name(); slices.Contains(names, n) || macros[n] {
				keep = append(keep, m)
				break
			}
		}
	}
	if len(keep) == 0 {
		return nil, nil
	}
	return &Attributes{m: gitattributes.NewMatcher(keep)}, nil
}

// Diff returns what the diff attribute (and the binary macro, which
// unsets it) says of path.
func (a *Attributes) Diff(path string) DiffDriver {
	if a == nil {
		return DiffDriver{Binary: -1}
	}
	res, _ := a.m.Match(strings.Split(path, "/"), []string{"diff", "binary"})
	if d, ok := res["diff"]; ok {
		switch {
		case d.IsUnset():
			return DiffDriver{Binary: 1}
		case d.IsSet():
			return DiffDriver{Binary: 0}
		case d.IsValueSet():
			return DiffDriver{Binary: -1, Name: d.Value()}
		}
	}
	if b, ok := res["binary"]; ok && b.IsSet() {
		return DiffDriver{Binary: 1}
	}
	return DiffDriver{Binary: -1}
}

// Values returns the state of each named attribute of path: "set",
// "unset", "" (unspecified) or its value.
func (a *Attributes) Values(path string, names []string) map[string]string {
	out := make(map[string]string, len(names))
	if a == nil {
		return out
	}
	res, _ := a.m.Match(strings.Split(path, "/"), append(slices.Clone(names), "binary"))
	for n, v := range res {
		if !slices.Contains(names, n) {
			continue
		}
		switch {
		case v.IsSet():
			out[n] = "set"
		case v.IsUnset():
			out[n] = "unset"
		case v.IsValueSet():
			out[n] = v.Value()
		}
	}
	// The built-in macro binary is -diff -merge -text.
	if b, ok := res["binary"]; ok && b.IsSet() {
		for _, n := range []string{"diff", "merge", "text"} {
			if _, set := res[n]; !set && slices.Contains(names, n) {
				out[n] = "unset"
			}
		}
	}
	return out
}

// IsAttributesFile reports whether path names a .gitattributes file.
func IsAttributesFile(path string) bool {
	return path == ".gitattributes" || strings.HasSuffix(path, "/.gitattributes")
}
