package main

import (
	"testing"

	"github.com/bcindex/bcindex/internal/testkit/gittest"
)

// TestGrepFunctionsFromChunker: with a diff driver named in
// .gitattributes, -W shows the whole definition the chunker finds around
// a match, doc comment included, and stops where it ends, not at the next
// line git's regular expression takes for a function; -p shows the
// declaration of the definition holding the match, and none for a match
// outside any (git would show the previous function's line).
func TestGrepFunctionsFromChunker(t *testing.T) {
	r := gittest.New(t)
	r.Commit("init", map[string]string{
		".gitattributes": "*.go diff=golang\n",
		"p.go": "package p\n\n// Doc for F.\nfunc F() {\n\terr := 1\n\t_ = err\n}\n\nvar errs = []int{\n\t1,\n}\n\n" +
			"type T struct{}\n\n// M is a method.\nfunc (T) M() {\n\terr := 2\n\t_ = err\n}\n",
	})
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"grep", "-n", "-W", "err :="}, "p.go-3-// Doc for F.\np.go=4=func F() {\np.go:5:\terr := 1\np.go-6-\t_ = err\np.go-7-}\n--\n" +
			"p.go-15-// M is a method.\np.go=16=func (T) M() {\np.go:17:\terr := 2\np.go-18-\t_ = err\np.go-19-}\n"},
		{[]string{"grep", "-n", "-p", "err :="}, "p.go=4=func F() {\np.go:5:\terr := 1\np.go=16=func (T) M() {\np.go:17:\terr := 2\n"},
		{[]string{"grep", "-n", "-p", "^\t1,"}, "p.go=9=var errs = []int{\np.go:10:\t1,\n"},
		{[]string{"grep", "-n", "-W", "^type"}, "p.go:13:type T struct{}\n"},
	} {
		code, out, errOut := runCLI(t, r.Dir, c.args...)
		if code != 0 || out != c.want {
			t.Errorf("%q: exit %d\n%s\ngot:\n%s\nwant:\n%s", c.args, code, errOut, out, c.want)
		}
	}
}
