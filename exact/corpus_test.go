package exact

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bcindex/bcindex/internal/reserved"
)

// corpusModule is real code from the module cache (it is in go.sum), not
// one of the reserved evaluation packages.
const corpusModule = "github.com/go-git/go-git/v5@v5.19.3"

// corpusFile is one file of the test corpus.
type corpusFile struct {
	path    string
	content []byte
}

// loadCorpus reads corpusModule's files from the module cache, plus files
// that real code rarely holds: CRLF lines, invalid UTF-8, non-ASCII text
// with the runes Unicode folding equates with ASCII letters, a binary file
// and a 16 KB line (PCRE backtracks quadratically on longer ones).
func loadCorpus(tb testing.TB) []corpusFile {
	tb.Helper()
	files := moduleFiles(tb, false)
	if len(files) < 250 {
		tb.Fatalf("corpus has %d files", len(files))
	}
	// A long line made of the corpus's own text, so patterns match in it.
	var long bytes.Buffer
	for _, f := range files {
		if long.Len() > 16<<10 {
			break
		}
		long.Write(bytes.ReplaceAll(f.content, []byte("\n"), []byte(" ")))
	}
	return append(files,
		corpusFile{"extra/crlf.txt", []byte("func main() {\r\n\tfmt.Println(\"hi\")\r\n}\r\n// end\r\nlast line without newline\r")},
		corpusFile{"extra/latin1.txt", []byte("caf\xe9 na\xefve \"quoted\" text\nmixed \xff\xfe bytes := x + 1\nok line\n\xc3\x28 bad sequence // comment\n")},
		corpusFile{"extra/unicode.txt", []byte("Ünïcödé strings: naïve café, Größe, ĳ\n\u212Aelvin and KELVIN, long \u017Fun\nΣίσυφος σοφός ΣΟΦΟΣ\n// 日本語のコメント func 関数()\n\ttabbed\tline\t\n")},
		corpusFile{"extra/binary.bin", append([]byte("text before func main\x00"), bytes.Repeat([]byte("func binary\n"), 10)...)},
		corpusFile{"extra/long.txt", append(long.Bytes(), '\n')},
	)
}

// moduleFiles reads corpusModule's files from the module cache; its test
// files only if asked, as they would double the differential test's time.
func moduleFiles(tb testing.TB, tests bool) []corpusFile {
	tb.Helper()
	if reserved.Is(strings.Split(corpusModule, "@")[0]) {
		tb.Fatalf("%s is reserved for evaluation", corpusModule)
	}
	out, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		tb.Fatalf("go env GOMODCACHE: %v", err)
	}
	root := filepath.Join(strings.TrimSpace(string(out)), corpusModule)
	var files []corpusFile
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !tests && strings.HasSuffix(path, "_test.go") {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		files = append(files, corpusFile{filepath.ToSlash(rel), b})
		return nil
	})
	if err != nil {
		tb.Skipf("corpus %s is not in the module cache: %v", corpusModule, err)
	}
	return files
}

// isBinary is git's rule: a NUL in the first 8000 bytes.
func isBinary(b []byte) bool {
	return bytes.IndexByte(b[:min(len(b), 8000)], 0) >= 0
}

// gitRepo writes files into a new repository, commits them and returns its
// directory and the environment to run git in it.
func gitRepo(tb testing.TB, files []corpusFile) (string, []string) {
	tb.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		tb.Skip("git is not installed")
	}
	dir := tb.TempDir()
	env := append(os.Environ(), "HOME="+dir, "GIT_CONFIG_NOSYSTEM=1", "LC_ALL=C.UTF-8",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
	for _, f := range files {
		p := filepath.Join(dir, "repo", filepath.FromSlash(f.path))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(p, f.content, 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	repo := filepath.Join(dir, "repo")
	for _, args := range [][]string{
		{"init", "-q"}, {"config", "core.autocrlf", "false"}, {"add", "-A", "-f"}, {"commit", "-qm", "corpus"}, {"gc", "-q"},
	} {
		cmd := exec.Command("git", args...)
		cmd.Dir, cmd.Env = repo, env
		if out, err := cmd.CombinedOutput(); err != nil {
			tb.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	return repo, env
}
