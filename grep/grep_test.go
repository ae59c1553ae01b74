package grep

import (
	"context"
	"fmt"
	"io/fs"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/bcindex/bcindex/exact"
	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/indexer"
	"github.com/bcindex/bcindex/internal/reserved"
	"github.com/bcindex/bcindex/internal/testkit/gittest"
	"github.com/bcindex/bcindex/segment"
)

// grepCorpus is real code from the module cache (in go.sum), not one of
// the reserved evaluation packages.
const grepCorpus = "github.com/go-git/go-git/v5@v5.19.3"

// corpusRepo commits grepCorpus's files, plus a vendored copy of one (the
// indexer never reads vendored files, so grep reads it), a binary file and
// a CRLF file, and returns the repository.
func corpusRepo(t *testing.T) (*gittest.Repo, map[string][]byte) {
	t.Helper()
	if reserved.Is(strings.Split(grepCorpus, "@")[0]) {
		t.Fatalf("%s is reserved for evaluation", grepCorpus)
	}
	out, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		t.Fatalf("go env GOMODCACHE: %v", err)
	}
	root := filepath.Join(strings.TrimSpace(string(out)), grepCorpus)
	files := map[string]string{}
	contents := map[string][]byte{}
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		files[filepath.ToSlash(rel)] = string(b)
		return nil
	})
	if err != nil {
		t.Skipf("%s is not in the module cache (go mod download %s): %v", grepCorpus, grepCorpus, err)
	}
	files["vendor/github.com/x/y/copy.go"] = files["plumbing/hash.go"]
	files["extra/blob.bin"] = "func Binary\x00Hash\nfunc Binary\n"
	files["extra/crlf.txt"] = "func main() {\r\n\treturn nil\r\n}\r\n"
	r := gittest.New(t)
	r.Git("config", "core.autocrlf", "false")
	r.Commit("corpus", files)
	for p, s := range files {
		contents[p] = []byte(s)
	}
	return r, contents
}

// gitGrep returns git grep's matches at rev as "path:line" strings.
func gitGrep(t *testing.T, r *gittest.Repo, rev string, flags []string, pattern string) []string {
	t.Helper()
	args := append([]string{"-c", "core.quotePath=false", "grep", "-n", "-I", "--no-color"}, flags...)
	args = append(args, "-e", pattern, rev)
	cmd := exec.Command("git", args...)
	cmd.Dir = r.Dir
	out, err := cmd.Output()
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == 1 {
			return nil
		}
		t.Fatalf("git %v: %v", args, err)
	}
	var got []string
	for _, line := range strings.Split(strings.TrimSuffix(string(out), "\n"), "\n") {
		parts := strings.SplitN(strings.TrimPrefix(line, rev+":"), ":", 3)
		got = append(got, parts[0]+":"+parts[1])
	}
	slices.Sort(got)
	return got
}

// grepLines greps as the command does: the revisions' exact index
// brought up to date first (indexer.Ensure with indexer.Exact).
func grepLines(t *testing.T, repo *gitindex.Repo, opts Options) ([]string, *Stats) {
	t.Helper()
	return grepParts(t, repo, indexer.Options{}, opts, indexer.Exact)
}

// grepParts greps after indexer.Ensure with parts (indexer.None: the
// index as it is, --no-index).
func grepParts(t *testing.T, repo *gitindex.Repo, iopts indexer.Options, opts Options, parts indexer.Parts) ([]string, *Stats) {
	t.Helper()
	v := ensure(t, repo, iopts, opts, parts)
	defer v.Close()
	var got []string
	st, err := Grep(context.Background(), v, opts, func(f *File) error {
		for _, l := range f.Lines {
			got = append(got, fmt.Sprintf("%s:%d", f.Path, l.Number))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(got)
	return got, st
}

// TestGrepSameAsGitGrep compares every match Grep answers from the index
// with git grep's, for literals drawn from the corpus's own lines and for
// regexes, with and without -i and -w; and checks that the index, not a
// scan, answered: selective literals read a small part of the blobs.
func TestGrepSameAsGitGrep(t *testing.T) {
	r, contents := corpusRepo(t)
	repo := openRepo(t, r.Dir)
	var paths []string
	for p := range contents {
		if strings.HasSuffix(p, ".go") {
			paths = append(paths, p)
		}
	}
	slices.Sort(paths)
	rng := rand.New(rand.NewSource(7))
	type pat struct {
		s     string
		fixed bool
	}
	var pats []pat
	for len(pats) < 60 {
		lines := strings.Split(string(contents[paths[rng.Intn(len(paths))]]), "\n")
		line := strings.TrimSpace(lines[rng.Intn(len(lines))])
		if len(line) < 4 {
			continue
		}
		n := 3 + rng.Intn(min(len(line)-2, 25))
		at := rng.Intn(len(line) - n + 1)
		pats = append(pats, pat{line[at : at+n], true})
	}
	for _, re := range []string{`func \(\w+ \*?Hash\)`, `^import \($`, `[Ee]rr(or)?Not[A-Z]\w+`, `\bctx context\.Context\b`,
		`return nil, (err|nil)$`, `(?:Reader|Writer)\s*interface`, `\d{4,}`, `.`, `^$`, `TODO|FIXME|XXX`, `main\(\) \{\r$`} {
		pats = append(pats, pat{re, false})
	}
	literalCands, literalBlobs, candidates, fromIndex := 0, 0, 0, 0
	for _, p := range pats {
		for _, o := range []exact.Options{{}, {IgnoreCase: true}, {Word: true}} {
			o.Fixed = p.fixed
			var flags []string
			if p.fixed {
				flags = append(flags, "-F")
			} else {
				flags = append(flags, "-P")
			}
			if o.IgnoreCase {
				flags = append(flags, "-i")
			}
			if o.Word {
				flags = append(flags, "-w")
			}
			m, err := exact.Compile([]string{p.s}, o)
			if err != nil {
				t.Fatalf("compile %q: %v", p.s, err)
			}
			got, st := grepLines(t, repo, Options{Matcher: m})
			want := gitGrep(t, r, "HEAD", flags, p.s)
			if !slices.Equal(got, want) {
				t.Errorf("%q %v: %d matches, git grep %d\n got  %.300v\n want %.300v", p.s, flags, len(got), len(want), got, want)
			}
			if p.fixed && len(p.s) >= 8 {
				literalCands += st.Candidates
				literalBlobs += st.Blobs
			}
			candidates, fromIndex = candidates+st.Candidates, fromIndex+st.FromIndex
		}
	}
	if literalCands*5 > literalBlobs {
		t.Errorf("literals of 8 bytes or more verified %d of %d blobs: the trigram index should rule out most", literalCands, literalBlobs)
	}
	t.Logf("literals of 8+ bytes: verified %d of %d blobs", literalCands, literalBlobs)
	// The candidates' bytes come from the segments' texts, not from git's
	// packs (the vendored copy, which the indexer reads for its trigrams
	// only, too).
	if fromIndex < candidates {
		t.Errorf("%d candidates, %d read from the segments' texts", candidates, fromIndex)
	}
}

// TestGrepManyRevisions checks that a file is reported once, naming every
// revision that holds it, and that a revision's own changes are found.
func TestGrepManyRevisions(t *testing.T) {
	r := gittest.New(t)
	r.Commit("one", map[string]string{"a.go": "package a\n// retryWithBackoff waits\n", "b.go": "package b\n"})
	r.Git("branch", "old")
	r.Commit("two", map[string]string{"b.go": "package b\nfunc retryWithBackoff() {}\n"})
	repo := openRepo(t, r.Dir)
	m, err := exact.Compile([]string{"retryWithBackoff"}, exact.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	opts := Options{Matcher: m, Refs: gitindex.RefSelection{Patterns: []string{"HEAD", "old"}}}
	v := ensure(t, repo, indexer.Options{}, opts, indexer.Exact)
	defer v.Close()
	_, err = Grep(context.Background(), v, opts, func(f *File) error {
		var names []string
		for _, ref := range f.Refs {
			names = append(names, ref.Name)
		}
		files = append(files, fmt.Sprintf("%s@%s:%d", f.Path, strings.Join(names, ","), f.Lines[0].Number))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"a.go@HEAD,old:2", "b.go@HEAD:2"}
	if !slices.Equal(files, want) {
		t.Fatalf("got %v, want %v", files, want)
	}
}

// TestGrepDamagedTrigramsServeNothingWrong flips a byte in a segment's
// trigram file, then in its texts: the segment is left out (its blobs are
// read from git, so the answer stays complete) and the next indexing run
// rebuilds it.
func TestGrepDamagedTrigramsServeNothingWrong(t *testing.T) {
	for _, name := range []string{segment.GramsFile, segment.ContentFile} {
		t.Run(name, func(t *testing.T) { damagedSegmentFile(t, name) })
	}
}

func damagedSegmentFile(t *testing.T, name string) {
	r := gittest.New(t)
	r.Commit("one", map[string]string{"a.go": "package a\nfunc Needle() {}\n", "b.go": "package b\n"})
	repo := openRepo(t, r.Dir)
	m, err := exact.Compile([]string{"Needle"}, exact.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := grepLines(t, repo, Options{Matcher: m}); !slices.Equal(got, []string{"a.go:2"}) {
		t.Fatalf("got %v", got)
	}
	files, _ := filepath.Glob(filepath.Join(repo.IndexDir, "segments", "*", name))
	if len(files) != 1 {
		t.Fatalf("%s files: %v", name, files)
	}
	b, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)-1] ^= 0xff
	// Rewritten under another inode, as a damaged disk would not, so that
	// the verified-file stamps do not vouch for it.
	os.Remove(files[0])
	if err := os.WriteFile(files[0], b, 0o644); err != nil {
		t.Fatal(err)
	}
	got, st := grepParts(t, repo, indexer.Options{}, Options{Matcher: m}, indexer.None)
	if !slices.Equal(got, []string{"a.go:2"}) || len(st.Damaged) == 0 {
		t.Fatalf("damaged: got %v, damaged %v", got, st.Damaged)
	}
	got, st = grepLines(t, repo, Options{Matcher: m})
	if !slices.Equal(got, []string{"a.go:2"}) || len(st.Damaged) != 0 || st.Unindexed != 0 || st.FromIndex != st.Candidates {
		t.Fatalf("after reindexing: got %v, stats %+v", got, st)
	}
}

// TestGrepTextsOfEverySegment: blobs indexed by three runs, one segment
// each, are read from the texts of the segment the trigram filter found
// them in, each its own bytes (the needle on another line in each file).
func TestGrepTextsOfEverySegment(t *testing.T) {
	r := gittest.New(t)
	repo := openRepo(t, r.Dir)
	m, err := exact.Compile([]string{"Needle"}, exact.Options{})
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{}
	var want []string
	for i, name := range []string{"a.go", "b.go", "c.go"} {
		files[name] = "package x\n" + strings.Repeat("\n", i) + "func Needle() {}\n"
		r.Commit(name, files)
		want = append(want, fmt.Sprintf("%s:%d", name, i+2))
		got, st := grepLines(t, repo, Options{Matcher: m})
		if !slices.Equal(got, want) || st.FromIndex != st.Candidates || st.Unindexed != 0 {
			t.Fatalf("after run %d: got %v, want %v, stats %+v", i+1, got, want, st)
		}
	}
	if segs, _ := filepath.Glob(filepath.Join(repo.IndexDir, "segments", "*", segment.ContentFile)); len(segs) < 3 {
		t.Fatalf("%d segments with texts, want 3", len(segs))
	}
}
