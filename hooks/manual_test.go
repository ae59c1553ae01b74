package hooks

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestManualStepsRun runs the lines a refused hook is told to add, in each
// language, with a stand-in git-bcindex on PATH that records its
// arguments: they call it with the hook's arguments, and do nothing when
// GIT_BCINDEX_SKIP=1 or when git-bcindex is not installed.
func TestManualStepsRun(t *testing.T) {
	for _, tc := range []struct{ interp, lang string }{{"python3", "Python"}, {"perl", "Perl"}, {"node", "JavaScript"}} {
		t.Run(tc.interp, func(t *testing.T) {
			if _, err := exec.LookPath(tc.interp); err != nil {
				t.Skipf("%s not installed (apt-get install %s)", tc.interp, tc.interp)
			}
			dir := t.TempDir()
			bin := filepath.Join(dir, "bin")
			os.Mkdir(bin, 0o755)
			record := filepath.Join(dir, "args")
			write(t, filepath.Join(bin, "git-bcindex"), "#!/bin/sh\necho \"$@\" > "+record+".tmp && mv "+record+".tmp "+record+"\n", 0o755)
			lang, lines := manualStep("post-commit", []byte("#!/usr/bin/env "+tc.interp+"\n"))
			if lang != tc.lang {
				t.Fatalf("language %q, want %q", lang, tc.lang)
			}
			hook := filepath.Join(dir, "post-commit")
			write(t, hook, "#!/usr/bin/env "+tc.interp+"\n"+lines, 0o755)
			run := func(env ...string) {
				t.Helper()
				cmd := exec.Command(hook, "a", "b c")
				cmd.Env = append(os.Environ(), env...)
				if out, err := cmd.CombinedOutput(); err != nil || len(out) > 0 {
					t.Fatalf("hook: %v, output %q", err, out)
				}
			}
			path := "PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH")
			run(path, "GIT_BCINDEX_SKIP=1")
			run("PATH=" + filepath.Dir(mustLook(t, tc.interp)) + ":/usr/bin:/bin") // no git-bcindex: quiet
			time.Sleep(200 * time.Millisecond)
			if _, err := os.Stat(record); err == nil {
				t.Fatal("git-bcindex was called although skipped or absent")
			}
			run(path)
			var got []byte
			for i := 0; i < 100 && len(got) == 0; i++ {
				time.Sleep(50 * time.Millisecond)
				got, _ = os.ReadFile(record)
			}
			if strings.TrimSpace(string(got)) != "hook run post-commit a b c" {
				t.Errorf("git-bcindex called with %q, want \"hook run post-commit a b c\"", got)
			}
		})
	}
}

func mustLook(t *testing.T, name string) string {
	p, err := exec.LookPath(name)
	if err != nil {
		t.Fatal(err)
	}
	p, _ = filepath.EvalSymlinks(p)
	return p
}
