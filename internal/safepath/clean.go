// Package safepath resolves user-supplied revisions and paths against a
// repository's object database, for every front end that takes them from
// someone it does not trust: the MCP tools an agent calls and the local web
// page. A path names an entry of a revision's tree listing and nothing else;
// the file system is never touched. Still, a caller may be steered into
// asking for "../../etc/passwd" or "/etc/passwd", or for a file through a
// committed symlink; those are refused with an error that says why, rather
// than answered with "not found", so that the caller stops trying.
//
// Every front end goes through this one package so that each way in
// refuses the same paths with the same explanations.
package safepath

import (
	"fmt"
	"strings"
)

// Clean checks a repository-relative path and returns it in the form the
// tree listing uses ("a/b.go"; "" for the root).
func Clean(p string) (string, error) {
	if strings.ContainsRune(p, 0) {
		return "", fmt.Errorf("path %q contains a NUL byte", p)
	}
	if strings.HasPrefix(p, "/") || strings.HasPrefix(p, `\`) || (len(p) >= 2 && p[1] == ':' && isLetter(p[0])) {
		return "", fmt.Errorf("absolute path %q refused: give a path relative to the repository root, like \"src/main.go\"", p)
	}
	for _, c := range strings.FieldsFunc(p, func(r rune) bool { return r == '/' || r == '\\' }) {
		if c == ".." {
			return "", fmt.Errorf("path %q refused: \"..\" may not appear in a path; paths are relative to the repository root", p)
		}
	}
	// Backslashes separate components only for the ".." check above: git
	// allows them in names, so the path keeps its own spelling.
	var parts []string
	for _, c := range strings.Split(p, "/") {
		if c != "" && c != "." {
			parts = append(parts, c)
		}
	}
	return strings.Join(parts, "/"), nil
}

func isLetter(b byte) bool { return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' }
