package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSuiteNeverTrained checks the quality suite's entries in sources.txt:
// at least eight packages in two halves, none reserved, none read by a
// train entry, and none returned to fetch or mine.
func TestSuiteNeverTrained(t *testing.T) {
	all, err := readAllSources("sources.txt")
	if err != nil {
		t.Fatal(err)
	}
	halves := map[string]int{}
	for _, s := range all {
		if isSuite(s.Split) {
			halves[s.Split]++
		}
	}
	if halves["suite-dev"]+halves["suite-test"] < 8 || halves["suite-dev"] == 0 || halves["suite-test"] == 0 {
		t.Errorf("suite halves %v: want at least 8 packages, some in each half", halves)
	}
	srcs, err := readSources("sources.txt")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range srcs {
		if isSuite(s.Split) {
			t.Errorf("readSources returned suite entry %s", s)
		}
	}
}

func TestSuiteGuard(t *testing.T) {
	for _, tc := range []struct {
		name, lines string
		refused     bool
	}{
		{"same package", "npm nodemailer 1.0.0 train\nnpm nodemailer 10.6.1 suite-test\n", true},
		{"other version", "go example.com/m v1.0.0 train\ngo example.com/m v2.0.0 suite-dev\n", true},
		{"eval may overlap", "npm nodemailer 1.0.0 eval\nnpm nodemailer 10.6.1 suite-test\n", false},
		{"kept prefix trained", "debzip jdk 17 train -a/\ndebzip jdk 17 suite-dev b/\n", true},
		{"kept prefix dropped", "debzip jdk 17 train -a/,-b/\ndebzip jdk 17 suite-dev b/\n", false},
		{"other package", "npm a 1 train\nnpm b 1 suite-dev\n", false},
		{"reserved", "go github.com/spf13/cobra v1 suite-test\n", true},
		{"benchmark repository", "deb python3-flask 2.2.2-3 train\n", true},
		{"benchmark module", "go github.com/go-chi/chi/v5 v5.5.0 eval\n", true},
		{"dev suite repository", "deb librust-minijinja-dev 1 train\n", true},
		{"unknown split", "npm a 1 suite\n", true},
	} {
		p := filepath.Join(t.TempDir(), "sources.txt")
		if err := os.WriteFile(p, []byte(tc.lines), 0o644); err != nil {
			t.Fatal(err)
		}
		srcs, err := readSources(p)
		if (err != nil) != tc.refused {
			t.Errorf("%s: err = %v, want refused %v", tc.name, err, tc.refused)
		}
		if err == nil && len(srcs) != strings.Count(tc.lines, "\n")-strings.Count(tc.lines, " suite-") {
			t.Errorf("%s: %d training sources", tc.name, len(srcs))
		}
	}
}

// TestPinSkipsSuite checks that pinning rewrites only training lines.
func TestPinSkipsSuite(t *testing.T) {
	p := filepath.Join(t.TempDir(), "sources.txt")
	in := "npm a latest train\nnpm b 2.0.0 suite-dev\nnpm c latest eval\n"
	if err := os.WriteFile(p, []byte(in), 0o644); err != nil {
		t.Fatal(err)
	}
	srcs, err := readSources(p)
	if err != nil {
		t.Fatal(err)
	}
	srcs[0].Version, srcs[1].Version = "1.1.0", "3.1.0"
	if err := pinSources(p, srcs); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(p)
	if want := "npm a 1.1.0 train\nnpm b 2.0.0 suite-dev\nnpm c 3.1.0 eval\n"; string(got) != want {
		t.Errorf("pinned:\n%s\nwant:\n%s", got, want)
	}
}

// TestPinRefusesEditedFile checks that a line removed during the fetch
// stops the pin instead of shifting versions onto the wrong packages.
func TestPinRefusesEditedFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "sources.txt")
	in := "npm a latest train\nnpm b latest train\nnpm c latest train\n"
	if err := os.WriteFile(p, []byte(in), 0o644); err != nil {
		t.Fatal(err)
	}
	srcs, err := readSources(p)
	if err != nil {
		t.Fatal(err)
	}
	srcs[0].Version, srcs[1].Version, srcs[2].Version = "1.0.0", "2.0.0", "3.0.0"
	edited := "npm a latest train\nnpm c latest train\n"
	if err := os.WriteFile(p, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := pinSources(p, srcs); err == nil || !strings.Contains(err.Error(), "changed during the fetch") {
		t.Errorf("pin of an edited file: %v, want an error", err)
	}
	if got, _ := os.ReadFile(p); string(got) != edited {
		t.Errorf("the edited file was rewritten:\n%s", got)
	}
}

// TestSourcesPinned: every package of sources.txt names its version.
func TestSourcesPinned(t *testing.T) {
	srcs, err := readSources("sources.txt")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range srcs {
		if s.Version == "latest" {
			t.Errorf("%s is not pinned", s)
		}
	}
}
