package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/bcindex/bcindex/internal/testkit/gittest"
)

// The fault-injection suite damages a real store and kills real processes,
// then holds every search to one invariant: it answers with the hits a fresh
// index of the same revision gives, or it fails with a clear message. Never
// a panic, never a wrong hit. After a repair the store answers like a fresh
// build again.
//
// `go test` runs a short mode; BCINDEX_FAULT_FULL=1 (as .ci/run sets) runs
// the full one: ≥ 200 seeded corruptions and ≥ 50 kills.

// faultFull reports whether the full run was asked for.
func faultFull() bool { return os.Getenv("BCINDEX_FAULT_FULL") == "1" }

// outcome of one search under a fault.
type outcome int

const (
	correct outcome = iota
	failedCleanly
	wrong
	panicked
)

// tally counts outcomes across the suite.
type tally struct {
	mu                                   sync.Mutex
	tried, correct, clean, wrong, panics int
}

func (t *tally) add(o outcome) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.tried++
	switch o {
	case correct:
		t.correct++
	case failedCleanly:
		t.clean++
	case wrong:
		t.wrong++
	case panicked:
		t.panics++
	}
}

func (t *tally) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return fmt.Sprintf("tried %d, correct %d, failed cleanly %d, wrong %d, panics %d", t.tried, t.correct, t.clean, t.wrong, t.panics)
}

// faultQuery is one search the suite compares with a fresh index. Vector
// scores are similarities, the same in any sound index; the other arms'
// scores come from ranks, and equal matches are ranked by their place in
// the segments, which differs between two sound builds (blobs finish in
// any order). Those queries ask for every match and compare the set.
type faultQuery struct {
	args   []string
	scored bool
}

// faultQueries exercise every arm: symbol, BM25, vectors, and their fusion.
var faultQueries = []faultQuery{
	{[]string{"--mode", "symbol", "-k", "200", "Open3"}, false},
	{[]string{"--mode", "text", "-k", "200", "checksum block"}, false},
	{[]string{"--mode", "vector", "-k", "8", "retry with exponential backoff"}, true},
	{[]string{"-k", "200", "open the connection pool"}, false},
}

func (q faultQuery) answer(out string) string {
	if q.scored {
		return normalize(out)
	}
	return chunkSet(out)
}

// chunkSet is the sorted set of hits' paths and chunks.
func chunkSet(out string) string {
	var lines []string
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		if l == "" {
			continue
		}
		var h struct {
			Path    string `json:"path"`
			ChunkID string `json:"chunk_id"`
		}
		if err := json.Unmarshal([]byte(l), &h); err != nil {
			return "unparsable: " + l
		}
		lines = append(lines, h.Path+" "+h.ChunkID)
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// fixture is a repository with a fresh index (the reference) and the
// answers that index gives.
type fixture struct {
	bin    string
	dir    string   // the pristine repository, indexed
	remote string   // a bare repository holding the pushed shared index
	want   []string // per faultQuery: the normalized answer
}

func newFixture(t *testing.T) *fixture {
	bin := buildBinary(t)
	r := gittest.New(t)
	files := map[string]string{"README.md": "# Pool\n\nA connection pool with retries.\n\n## Retry\n\nRetry with exponential backoff.\n"}
	// Every file differs in words and length, so that no two hits tie:
	// with ties, two sound indexes could order them differently.
	words := strings.Fields("amber basalt cedar dune ember fjord granite harbor iris jasper kelp lagoon " +
		"marble nectar onyx prairie quartz reef sierra tundra umber valley willow xenon yarrow zephyr")
	for i := 0; i < 12; i++ {
		a, b := words[i], words[i+12]
		pad := strings.Repeat("\t// "+a+" "+b+"\n", i)
		files[fmt.Sprintf("pool/conn%d.go", i)] = fmt.Sprintf("package pool\n\n// Open%d opens the %s connection of the %s pool.\nfunc Open%d(addr string) error {\n%s\treturn dial(addr, %d)\n}\n\n// Retry%d retries the %s dial with exponential backoff.\nfunc Retry%d(n int) int {\n\tdelay := %d\n\tfor i := 0; i < n; i++ {\n\t\tdelay *= 2\n\t}\n%s\treturn delay\n}\n", i, a, b, i, pad, i, i, b, i, i+1, pad)
		files[fmt.Sprintf("sum/block%d.py", i)] = fmt.Sprintf("def checksum_%s_%d(data):\n    \"\"\"Checksum the %s block of the %s data.\"\"\"\n    total = %d\n%s    for b in data:\n        total = (total * 31 + b) %% 65521\n    return total\n", a, i, a, b, i, strings.Repeat("    # "+b+" "+a+"\n", 12-i))
	}
	files["config/parse.go"] = "package config\n\n// ParseConfig reads the configuration file.\nfunc ParseConfig(path string) (map[string]string, error) {\n\treturn nil, nil\n}\n"
	r.Commit("init", files)
	r.Commit("more", map[string]string{"pool/close.go": "package pool\n\n// Close closes every connection of the pool.\nfunc Close() {}\n"})
	f := &fixture{bin: bin, dir: r.Dir}
	f.mustRun(t, f.dir, "index")
	f.remote = filepath.Join(t.TempDir(), "remote.git")
	r.Git("init", "-q", "--bare", f.remote)
	r.Git("remote", "add", "origin", f.remote)
	r.Git("push", "-q", "origin", "main")
	f.mustRun(t, f.dir, "push", "origin")
	for _, q := range faultQueries {
		code, out, errOut := f.run(f.dir, append([]string{"search", "--no-index", "--json"}, q.args...)...)
		if code != 0 {
			t.Fatalf("reference search %v: exit %d: %s", q.args, code, errOut)
		}
		f.want = append(f.want, q.answer(out))
	}
	return f
}

// run runs the binary in dir and returns its exit code and output.
func (f *fixture) run(dir string, args ...string) (int, string, string) {
	return f.runEnv(dir, nil, args...)
}

func (f *fixture) runEnv(dir string, env []string, args ...string) (int, string, string) {
	cmd := exec.Command(f.bin, append([]string{"--dir", dir}, args...)...)
	cmd.Env = append(os.Environ(), env...)
	return runCmd(cmd)
}

// runCmd runs cmd and returns its exit code (-1 when it could not run) and
// output.
func runCmd(cmd *exec.Cmd) (int, string, string) {
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		code = -1
	}
	return code, out.String(), errOut.String()
}

func (f *fixture) mustRun(t *testing.T, dir string, args ...string) string {
	t.Helper()
	code, out, errOut := f.run(dir, args...)
	if code != 0 || isPanic(errOut) {
		t.Fatalf("git bcindex %s: exit %d\n%s%s", strings.Join(args, " "), code, out, errOut)
	}
	return out
}

// normalize reduces JSON Lines hits to what must match a fresh index: the
// hits scoring above the lowest score shown, in score order (path, chunk,
// score), then how many share the lowest score. Hits with equal scores
// are ordered by their place in the segments, which a repaired store may
// lay out differently from a fresh one, so ties are compared as sets and
// a tie at the cut-off by count.
func normalize(out string) string {
	type hit struct {
		Path    string  `json:"path"`
		ChunkID string  `json:"chunk_id"`
		Score   float64 `json:"score"`
	}
	var hits []hit
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		if l == "" {
			continue
		}
		var h hit
		if err := json.Unmarshal([]byte(l), &h); err != nil {
			return "unparsable: " + l
		}
		hits = append(hits, h)
	}
	if len(hits) == 0 {
		return ""
	}
	key := func(h hit) string { return fmt.Sprintf("%.3f", h.Score) }
	sort.SliceStable(hits, func(i, j int) bool {
		if key(hits[i]) != key(hits[j]) {
			return hits[i].Score > hits[j].Score
		}
		return hits[i].Path+hits[i].ChunkID < hits[j].Path+hits[j].ChunkID
	})
	last := key(hits[len(hits)-1])
	var lines []string
	tied := 0
	for _, h := range hits {
		if key(h) == last {
			tied++
			continue
		}
		lines = append(lines, fmt.Sprintf("%s %s %s", h.Path, h.ChunkID, key(h)))
	}
	return strings.Join(append(lines, fmt.Sprintf("and %d at %s", tied, last)), "\n")
}

func isPanic(stderr string) bool {
	return strings.Contains(stderr, "panic:") || strings.Contains(stderr, "goroutine ")
}

// judge classifies one search: its hits must be the reference's, or it
// must fail (exit 2) with an "error:" line.
func judge(q faultQuery, code int, out, errOut, want string) outcome {
	switch {
	case isPanic(errOut):
		return panicked
	case code == 0 || code == 1:
		if q.answer(out) == want {
			return correct
		}
		return wrong
	case code == 2 && strings.Contains(errOut, "error: "):
		return failedCleanly
	}
	return wrong
}

// searchAll runs every query in dir and records the outcomes; it returns
// the queries that gave wrong answers or panicked, for the log.
func (f *fixture) searchAll(dir string, tl *tally, extra ...string) []string {
	return f.searchSome(dir, tl, []int{0, 1, 2, 3}, extra...)
}

// searchSome is searchAll for the queries numbered which.
func (f *fixture) searchSome(dir string, tl *tally, which []int, extra ...string) []string {
	var bad []string
	for _, i := range which {
		q := faultQueries[i]
		code, out, errOut := f.run(dir, append(append([]string{"search", "--json"}, extra...), q.args...)...)
		o := judge(q, code, out, errOut, f.want[i])
		tl.add(o)
		if o == wrong || o == panicked {
			bad = append(bad, fmt.Sprintf("%v: exit %d\n%s\nstderr: %s\nwant:\n%s", q.args, code, q.answer(out), errOut, f.want[i]))
		}
	}
	return bad
}

// clone copies the pristine repository, store included, to a new directory.
func (f *fixture) clone(t *testing.T) string {
	dst := filepath.Join(t.TempDir(), "case")
	if out, err := exec.Command("cp", "-a", f.dir, dst).CombinedOutput(); err != nil {
		t.Fatalf("copy repository: %v %s", err, out)
	}
	return dst
}

// storeFiles lists the files under a repository's store, sorted: what the
// corruption cases damage. Lock files hold no data.
func storeFiles(t *testing.T, dir string) []string {
	var out []string
	root := filepath.Join(dir, ".git", "bcindex")
	filepath.Walk(root, func(p string, fi os.FileInfo, err error) error {
		if err == nil && fi.Mode().IsRegular() && fi.Size() > 0 && !strings.HasSuffix(p, ".lock") && filepath.Base(p) != "LOCK" {
			rel, _ := filepath.Rel(root, p)
			out = append(out, rel)
		}
		return nil
	})
	sort.Strings(out)
	if len(out) == 0 {
		t.Fatalf("no store files under %s", root)
	}
	return out
}

// restoreStore replaces a repository's store with the pristine one.
func (f *fixture) restoreStore(t *testing.T, dir string) {
	dst := filepath.Join(dir, ".git", "bcindex")
	if err := os.RemoveAll(dst); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("cp", "-a", filepath.Join(f.dir, ".git", "bcindex"), dst).CombinedOutput(); err != nil {
		t.Fatalf("restore store: %v %s", err, out)
	}
}
