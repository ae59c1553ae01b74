package chunk

import (
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/bcindex/bcindex/chunk/vocab"
)

// brokenCorpus lists real files whose parse has syntax errors: C and C++
// from GOROOT/src (macros, assembly-like headers), Go files from its
// testdata (written not to compile), the broken files of the sampled real
// corpus, and the files under BCINDEX_RECOVER_DIR when set; at most max.
func brokenCorpus(tb testing.TB, max int) []realFile {
	var out []realFile
	consider := func(p, lang string, src []byte) {
		if len(out) >= max || grammarFor(lang) == nil || len(src) > maxParseBytes {
			return
		}
		if macroLanguages[lang] {
			src = blankMacroLines(src)
		}
		f, _, tree := parseRanges(lang, p, src, nil, parseBaseMicros, nil)
		if tree != nil {
			tree.Close()
		}
		if f.SyntaxErrors > 0 {
			out = append(out, realFile{p, lang, src})
		}
	}
	walk := func(root string, keep func(string) bool) {
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || len(out) >= max || !keep(p) {
				return nil
			}
			src, err := os.ReadFile(p)
			if err != nil || len(src) == 0 || len(src) > 256<<10 {
				return nil
			}
			consider(p, vocab.DetectLanguage(p, src), src)
			return nil
		})
	}
	if dir := os.Getenv("BCINDEX_RECOVER_DIR"); dir != "" {
		walk(dir, func(string) bool { return true })
	}
	goroot := filepath.Join(runtime.GOROOT(), "src")
	walk(goroot, func(p string) bool {
		ext := filepath.Ext(p)
		return ext == ".c" || ext == ".h" || ext == ".cc" || ext == ".cpp" ||
			ext == ".go" && strings.Contains(p, string(filepath.Separator)+"testdata"+string(filepath.Separator))
	})
	for _, f := range realCorpus(tb) {
		consider(f.path, f.lang, f.src)
	}
	return out
}

// TestRecoveryProbeMatchesFullChunking: judging candidate cuts on a probe
// of their parse (no syntax errors described) and chunking only the kept
// ones in full gives the file exactly the chunks, error details and
// regions of chunking every candidate in full, on real files with syntax
// errors.
func TestRecoveryProbeMatchesFullChunking(t *testing.T) {
	files := brokenCorpus(t, 400)
	if len(files) < 50 {
		t.Fatalf("only %d real files with syntax errors found", len(files))
	}
	recovered := 0
	for _, rf := range files {
		run := func(probe bool) (File, bool) {
			f, ok, tree := parseRanges(rf.lang, rf.path, rf.src, nil, parseBaseMicros, nil)
			return recoverWith(rf.lang, rf.path, rf.src, f, ok, parseBaseMicros, tree, probe)
		}
		want, wantOK := run(false)
		got, gotOK := run(true)
		if gotOK != wantOK || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: probed recovery (%v, %d chunks) differs from full (%v, %d chunks)", rf.path, gotOK, len(got.Chunks), wantOK, len(want.Chunks))
			continue
		}
		if wantOK {
			recovered++
		}
	}
	if recovered == 0 {
		t.Fatalf("none of %d broken files was recovered: the comparison saw no kept cut", len(files))
	}
	t.Logf("%d files with syntax errors, %d recovered, identical", len(files), recovered)
}
