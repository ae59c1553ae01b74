package gitgrep

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/bcindex/bcindex/grep"
)

const dashdashHint = "Use '--' to separate paths from revisions, like this:\n'git <command> [<revision>...] -- [<file>...]'"

// revisions splits what follows the pattern as git grep does: up to "--"
// every argument must name a revision; without "--", revisions run up to
// the first argument that names none, and the rest are paths that must
// exist in the working tree (or look like pathspecs). A revision is any
// commit, tree or blob; each becomes a source, named as typed.
func (g *runner) revisions(args []string) ([]grep.Source, []string, error) {
	dashdash := false
	for _, a := range args {
		if a == "--" {
			dashdash = true
			break
		}
	}
	allowRevs := !g.o.noIndex && !g.o.untracked && g.repo != nil
	var sources []grep.Source
	i := 0
	for ; i < len(args); i++ {
		arg := args[i]
		if arg == "--" {
			i++
			break
		}
		if !allowRevs {
			if dashdash {
				return nil, nil, Fatal{"--no-index or --untracked cannot be used with revs"}
			}
			break
		}
		obj, ok, err := g.repo.ResolveObject(arg)
		if err != nil {
			return nil, nil, err
		}
		if !ok {
			if dashdash {
				return nil, nil, Fatal{"unable to resolve revision: " + arg}
			}
			break
		}
		if !dashdash && g.isFile(arg) {
			return nil, nil, Fatal{fmt.Sprintf("ambiguous argument '%s': both revision and filename\n%s", arg, dashdashHint)}
		}
		src := grep.Source{Name: arg + ":"}
		switch obj.Type {
		case plumbing.CommitObject:
			c := obj.Commit
			src.Commit, src.Tree, src.Attributes = &c, obj.Tree, true
		case plumbing.TreeObject:
			src.Tree = obj.Tree
		default:
			src.Name, src.Blob = arg, obj.Hash
		}
		sources = append(sources, src)
	}
	paths := args[i:]
	if !dashdash {
		for j, p := range paths {
			if err := g.verifyFilename(p, j == 0 && allowRevs); err != nil {
				return nil, nil, err
			}
		}
	}
	return sources, paths, nil
}

// isFile is git's check_filename: whether arg names a file or directory
// of the working tree, from the current directory (":/" from the top).
func (g *runner) isFile(arg string) bool {
	if g.repo != nil && g.repo.WorkTree == "" {
		return false
	}
	base := filepath.Join(g.top, filepath.FromSlash(g.prefix))
	if rest, ok := strings.CutPrefix(arg, ":/"); ok {
		if rest == "" {
			return true
		}
		arg, base = rest, g.top
	} else if rest, ok := strings.CutPrefix(arg, ":!"); ok {
		if rest == "" {
			return true
		}
		arg = rest
	} else if rest, ok := strings.CutPrefix(arg, ":^"); ok {
		if rest == "" {
			return true
		}
		arg = rest
	}
	if !filepath.IsAbs(arg) {
		arg = filepath.Join(base, arg)
	}
	_, err := os.Lstat(arg)
	return err == nil
}

// looksLikePathspec is git's: a wildcard not escaped, or long magic.
func looksLikePathspec(arg string) bool {
	escaped := false
	for i := 0; i < len(arg); i++ {
		switch c := arg[i]; {
		case escaped:
			escaped = false
		case c == '\\':
			escaped = true
		case c == '*' || c == '?' || c == '[':
			return true
		}
	}
	return strings.HasPrefix(arg, ":(")
}

// verifyFilename is git's verify_filename: a path given without "--"
// must exist; otherwise git says why, naming a misspelt revision when
// the argument could have been one.
func (g *runner) verifyFilename(arg string, diagnoseRev bool) error {
	if strings.HasPrefix(arg, "-") {
		return Fatal{fmt.Sprintf("option '%s' must come before non-option arguments", arg)}
	}
	if looksLikePathspec(arg) || g.isFile(arg) {
		return nil
	}
	if !diagnoseRev {
		return Fatal{fmt.Sprintf("%s: no such path in the working tree.\nUse 'git <command> -- <path>...' to specify paths that do not exist locally.", arg)}
	}
	if !(len(arg) > 1 && arg[0] == ':' && !isAlnum(arg[1])) {
		if msg := g.misspelt(arg); msg != "" {
			return Fatal{msg}
		}
	}
	return Fatal{fmt.Sprintf("ambiguous argument '%s': unknown revision or path not in the working tree.\n%s", arg, dashdashHint)}
}

func isAlnum(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// misspelt says what git says of REV:path when REV names a tree-ish and
// path is not in it.
func (g *runner) misspelt(arg string) string {
	base, path, ok := strings.Cut(arg, ":")
	if !ok || base == "" || g.repo == nil {
		return ""
	}
	obj, ok, err := g.repo.ResolveObject(base)
	if err != nil || !ok || obj.Tree.IsZero() {
		return ""
	}
	if _, err := os.Lstat(filepath.Join(g.top, filepath.FromSlash(path))); err == nil {
		return fmt.Sprintf("path '%s' exists on disk, but not in '%s'", path, base)
	}
	return fmt.Sprintf("path '%s' does not exist in '%s'", path, base)
}
