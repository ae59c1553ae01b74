// Package reserved names the packages the project keeps out of every
// training, tuning and evaluation set, and out of the benchmarks' corpora:
// an independent evaluation of search quality uses them. The trainer
// (cmd/bcindex-train), the bench and the cluster bench all ask it.
package reserved

import "strings"

// names are reserved packages: module path suffixes (owner/name) and
// package names of the npm and Debian registries.
var names = []string{
	"spf13/cobra", "gin-gonic/gin", "psf/requests", "python3-requests",
	"pallets/click", "python3-click", "commander", "google/gson",
}

// Is reports whether a package or module name is reserved: it is one of
// the names, ends in "/" and one, or holds one between slashes (any
// version suffix of a Go module), ignoring case.
func Is(name string) bool {
	n := strings.ToLower(name)
	for _, r := range names {
		if n == r || strings.HasSuffix(n, "/"+r) || strings.Contains(n, "/"+r+"/") {
			return true
		}
	}
	return false
}
