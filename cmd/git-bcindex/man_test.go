package main

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/bcindex/bcindex/internal/testkit/gittest"
)

// TestManPage checks the sections beyond the flags and that globs and
// placeholders print as written, in the roff and, when groff is installed,
// as man shows it.
func TestManPage(t *testing.T) {
	r := gittest.New(t)
	code, page, errOut := runCLI(t, r.Dir, "man")
	if code != 0 {
		t.Fatalf("man: exit %d %s", code, errOut)
	}
	for _, want := range []string{".SH EXIT STATUS", ".SH ENVIRONMENT", ".SH CONFIGURATION", ".SH EXAMPLES",
		"GIT_BCINDEX_SKIP", "BCINDEX_API_KEY", "bcindex.embedder", "bcindex.maxFileSize", "refs/bcindex/<model>", "'pkg/**/*"} {
		if !strings.Contains(page, want) {
			t.Errorf("man page lacks %q", want)
		}
	}
	if strings.Contains(page, `\fI/\fP`) || strings.Contains(page, "refs/bcindex/\n") {
		t.Errorf("man page garbles a glob or a placeholder")
	}
	if _, err := exec.LookPath("groff"); err != nil {
		t.Skip("groff not installed (apt-get install groff-base): the rendered page is not checked")
	}
	cmd := exec.Command("groff", "-man", "-Tascii", "-P", "-cbou")
	cmd.Stdin = strings.NewReader(page)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("groff: %v", err)
	}
	text := strings.Join(strings.Fields(string(out)), " ")
	for _, want := range []string{"'pkg/**/*.go'", "refs/bcindex/<model>", "--path 'pkg/**/*.go' OpenRepository", "EXIT STATUS 0 Success", "1 search, grep, log or similar found nothing"} {
		if !strings.Contains(text, want) {
			t.Errorf("rendered man page lacks %q", want)
		}
	}
}
