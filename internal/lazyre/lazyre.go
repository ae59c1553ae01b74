// Package lazyre compiles a package's regular expressions on first use
// instead of in package initialisation, which every command pays for
// whether or not it matches anything with them.
package lazyre

import (
	"regexp"
	"sync"
)

// New returns a function that compiles expr the first time it is called
// and returns the same *regexp.Regexp on every call. expr is a constant of
// the program: a bad one panics, as regexp.MustCompile does, on first use
// (the package's tests reach every use).
func New(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}
