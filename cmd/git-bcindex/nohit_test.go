package main

import (
	"testing"

	"github.com/bcindex/bcindex/internal/testkit/gittest"
)

// TestHybridNoHit: like git grep, a hybrid search that nothing answers
// prints nothing and exits 1, while a real query still finds its function.
func TestHybridNoHit(t *testing.T) {
	r := gittest.New(t)
	r.Commit("init", map[string]string{
		"store/repo.go":   sample,
		"net/retry.go":    "package net\n\n// Retry calls f until it succeeds, waiting longer after each failure.\nfunc Retry(f func() error) error {\n\tfor d := 1; ; d *= 2 {\n\t\tif err := f(); err == nil {\n\t\t\treturn nil\n\t\t}\n\t\tsleep(d)\n\t}\n}\n",
		"util/strings.py": "def slugify(title):\n    \"\"\"Turn a title into a lowercase URL slug.\"\"\"\n    return title.lower().replace(' ', '-')\n",
	})
	if code, _, errOut := runCLI(t, r.Dir, "index"); code != 0 {
		t.Fatalf("index: exit %d: %s", code, errOut)
	}
	for _, q := range []string{"zzqqxxnotaword", "flurbish grontle wexmap"} {
		code, out, errOut := runCLI(t, r.Dir, "search", q)
		if code != 1 || out != "" {
			t.Errorf("search %q: exit %d, stdout %q (stderr %q); want exit 1 and nothing", q, code, out, errOut)
		}
	}
	for _, q := range []string{"retry with backoff", "slugify", "url slug from a title"} {
		if code, out, errOut := runCLI(t, r.Dir, "search", q); code != 0 || out == "" {
			t.Errorf("search %q: exit %d, stdout %q (stderr %q); want hits", q, code, out, errOut)
		}
	}
}
