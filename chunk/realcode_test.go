package chunk

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/bcindex/bcindex/chunk/vocab"
)

// realFile is a source file nobody here wrote.
type realFile struct {
	path string
	lang string
	src  []byte
}

var (
	realOnce  sync.Once
	realFiles []realFile
)

// realCorpus samples files available offline: GOROOT/src and the module
// cache (Go, C, shell, JSON, YAML, Markdown, JavaScript, TypeScript, ...),
// at most perLang files of at most 256 KB per language, visited in a fixed
// order. BCINDEX_REAL_PER_LANG raises the cap.
func realCorpus(tb testing.TB) []realFile {
	realOnce.Do(func() {
		perLang := 15
		if v := os.Getenv("BCINDEX_REAL_PER_LANG"); v != "" {
			var n int
			for _, c := range v {
				n = n*10 + int(c-'0')
			}
			perLang = n
		}
		roots := []string{filepath.Join(runtime.GOROOT(), "src")}
		if out, err := exec.Command("go", "env", "GOMODCACHE").Output(); err == nil {
			if mc := strings.TrimSpace(string(out)); mc != "" {
				roots = append(roots, mc)
			}
		}
		count := map[string]int{}
		for _, root := range roots {
			filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
				if err != nil {
					return nil
				}
				if d.IsDir() {
					if n := d.Name(); n == "cache" || n == "node_modules" && count["javascript"] >= perLang {
						return filepath.SkipDir
					}
					return nil
				}
				info, err := d.Info()
				if err != nil || info.Size() > 256<<10 || info.Size() == 0 || !info.Mode().IsRegular() {
					return nil
				}
				lang := vocab.DetectLanguage(p, nil)
				if lang == "text" || count[lang] >= perLang {
					return nil
				}
				src, err := os.ReadFile(p)
				if err != nil {
					return nil
				}
				count[lang]++
				realFiles = append(realFiles, realFile{p, vocab.DetectLanguage(p, src), src})
				return nil
			})
		}
	})
	if len(realFiles) == 0 {
		tb.Skip("no real code found offline")
	}
	return realFiles
}

// TestRealCode: on real code every chunker invariant holds, every line is
// in the IndexText of the chunk that owns it, and every language with a
// grammar yields named definitions.
func TestRealCode(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	files := realCorpus(t)
	named := map[string]int{}
	seen := map[string]int{}
	fallback := map[string]int{}
	for _, rf := range files {
		f := Split(rf.path, rf.src)
		checkInvariants(t, rf.src, f)
		if t.Failed() {
			t.Fatalf("in %s", rf.path)
		}
		checkLinesIndexed(t, rf.path, rf.src, f)
		seen[f.Language]++
		if f.Fallback {
			fallback[f.Language]++
		}
		for _, c := range f.Chunks {
			if isDef(c.Kind) && c.Name != "" {
				named[f.Language]++
				break
			}
		}
	}
	var langs []string
	for l := range seen {
		langs = append(langs, l)
	}
	sort.Strings(langs)
	for _, l := range langs {
		t.Logf("%-12s files=%4d with-definitions=%4d fallback=%4d", l, seen[l], named[l], fallback[l])
		if g := grammarFor(l); g != nil && g.visit != nil && l != "hcl" && l != "sql" && l != "dockerfile" && named[l] == 0 && seen[l] >= 3 {
			t.Errorf("%s: no named definitions in %d files", l, seen[l])
		}
	}
}

// checkLinesIndexed verifies that each line lying wholly within one chunk
// (no child starting or ending inside it) is part of that chunk's
// IndexText, or of one of its windows.
func checkLinesIndexed(t *testing.T, name string, src []byte, f File) {
	t.Helper()
	texts := make([]string, len(f.Chunks))
	for i := range f.Chunks {
		texts[i] = vocab.IndexText(src, f, i)
	}
	li := newLineIndex(src)
	for ln := 0; ln < len(li); ln++ {
		s := li[ln]
		e := lineStart(li, ln+1, len(src))
		line := strings.TrimSpace(strings.ToValidUTF8(string(src[s:e]), "\uFFFD"))
		if line == "" || len(line) > 2000 {
			continue
		}
		// Innermost non-block, non-window chunk holding the line.
		owner, clean := 0, true
		for i, c := range f.Chunks[1:] {
			if c.Kind == vocab.KindBlock || c.Kind == vocab.KindWindow {
				continue
			}
			inside := c.StartByte <= s && e <= c.EndByte || c.StartByte <= s && c.EndByte >= e-1 && e-1 >= s && src[e-1] == '\n'
			crosses := c.StartByte > s && c.StartByte < e || c.EndByte > s && c.EndByte < e && !(c.EndByte == e-1 && src[e-1] == '\n')
			if inside {
				owner = i + 1
			} else if crosses {
				clean = false
			}
		}
		if !clean {
			continue
		}
		ok := strings.Contains(texts[owner], line)
		for i, c := range f.Chunks {
			if !ok && c.Kind == vocab.KindWindow && c.Parent == owner && c.StartByte <= s && e <= c.EndByte+1 {
				ok = strings.Contains(texts[i], line)
			}
		}
		if !ok {
			t.Errorf("%s:%d: line %q in no IndexText (owner %d %s %q)", name, ln+1, line, owner, f.Chunks[owner].Kind, f.Chunks[owner].Name)
			return
		}
	}
}
