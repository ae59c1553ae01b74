package main

import (
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"
)

func TestFaultInjection(t *testing.T) {
	if testing.Short() {
		t.Skip("fault injection skipped in -short mode")
	}
	f := newFixture(t)
	tl := &tally{}
	corruptions, kills := 12, 4
	if faultFull() {
		corruptions, kills = 200, 52
	}
	t.Run("corruption", func(t *testing.T) { f.corruptions(t, tl, corruptions) })
	t.Run("kill", func(t *testing.T) { f.kills(t, tl, kills) })
	t.Run("two indexers", func(t *testing.T) { f.twoIndexers(t, tl) })
	t.Run("disk full", func(t *testing.T) { f.diskFull(t, tl) })
	t.Run("read-only", func(t *testing.T) { f.readOnly(t, tl) })
	t.Logf("fault injection: %s", tl)
	if faultFull() {
		fmt.Printf("fault injection: %s\n", tl)
	}
	if tl.wrong > 0 || tl.panics > 0 {
		t.Errorf("fault injection: %s: want no wrong answers and no panics", tl)
	}
}

// repair runs the repair a user is told to run, then requires the store to
// answer like a fresh build.
func (f *fixture) repairAndVerify(t *testing.T, dir, what string, which ...int) {
	t.Helper()
	if which == nil {
		which = []int{0, 2}
	}
	if code, out, errOut := f.run(dir, "check", "--repair"); code != 0 || isPanic(errOut) {
		t.Errorf("%s: check --repair: exit %d\n%s%s", what, code, out, errOut)
		return
	}
	// check --repair fails unless a check after the rebuild finds nothing.
	for _, i := range which {
		q := faultQueries[i]
		code, out, errOut := f.run(dir, append([]string{"search", "--no-index", "--json"}, q.args...)...)
		if got := q.answer(out); code != 0 || got != f.want[i] {
			t.Errorf("%s: after repair, search %v: exit %d %s\n%s\nwant\n%s", what, q.args, code, errOut, got, f.want[i])
		}
	}
}

// corruptions flips bytes in, or truncates, a seeded choice of store
// files, in two workers. Each case searches two of the queries under the
// fault and a third after the repair, rotating, so that every arm meets
// every kind of damage over the run.
func (f *fixture) corruptions(t *testing.T, tl *tally, n int) {
	files := storeFiles(t, f.dir)
	rng := rand.New(rand.NewSource(17))
	type damage struct {
		i        int
		name     string
		cut      int // truncate to cut bytes; -1: flip
		flips    int
		flipSeed int64
	}
	cases := make(chan damage)
	go func() {
		defer close(cases)
		for i := 0; i < n; i++ {
			// Every file is damaged at least once before any twice.
			d := damage{i: i, name: files[i%len(files)], cut: -1}
			if i >= len(files) {
				d.name = files[rng.Intn(len(files))]
			}
			if rng.Intn(3) == 0 {
				d.cut = rng.Intn(1 << 20)
			} else {
				d.flips = 1 + rng.Intn(200)
			}
			d.flipSeed = rng.Int63()
			cases <- d
		}
	}()
	var wg sync.WaitGroup
	for w := 0; w < 2; w++ {
		dir := f.clone(t)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for d := range cases {
				f.restoreStore(t, dir)
				p := filepath.Join(dir, ".git", "bcindex", d.name)
				b, err := os.ReadFile(p)
				if err != nil {
					t.Error(err)
					return
				}
				var what string
				if d.cut >= 0 {
					b = b[:d.cut%len(b)]
					what = fmt.Sprintf("case %d: %s truncated to %d bytes", d.i, d.name, len(b))
				} else {
					r := rand.New(rand.NewSource(d.flipSeed))
					for j := 0; j < d.flips; j++ {
						b[r.Intn(len(b))] ^= byte(1 + r.Intn(255))
					}
					what = fmt.Sprintf("case %d: %d bytes flipped in %s", d.i, d.flips, d.name)
				}
				if err := os.WriteFile(p, b, 0o644); err != nil {
					t.Error(err)
					return
				}
				for _, bad := range f.searchSome(dir, tl, []int{d.i % 4, (d.i + 1) % 4}) {
					t.Errorf("%s: %s", what, bad)
				}
				f.repairAndVerify(t, dir, what, (d.i+2)%4)
			}
		}()
	}
	wg.Wait()
}

// killOps are the runs a kill -9 interrupts: each prepares the repository
// and returns the command to start.
var killOps = []struct {
	name    string
	prepare func(f *fixture, t *testing.T, dir string) []string
}{
	{"index", func(f *fixture, t *testing.T, dir string) []string {
		os.RemoveAll(filepath.Join(dir, ".git", "bcindex"))
		return []string{"index", "--checkpoint", "4"}
	}},
	{"gc", func(f *fixture, t *testing.T, dir string) []string {
		f.restoreStore(t, dir)
		return []string{"gc"}
	}},
	{"fetch", func(f *fixture, t *testing.T, dir string) []string {
		os.RemoveAll(filepath.Join(dir, ".git", "bcindex"))
		return []string{"fetch", "origin"}
	}},
	{"hook", func(f *fixture, t *testing.T, dir string) []string {
		// What `hook run post-commit` records before it starts the worker
		// detached; the worker runs here in the foreground to be killed.
		store := filepath.Join(dir, ".git", "bcindex")
		os.RemoveAll(store)
		os.MkdirAll(store, 0o755)
		os.WriteFile(filepath.Join(store, "hook.pending"), []byte("post-commit\n"), 0o644)
		return []string{"hook", "worker"}
	}},
}

// kills starts index, gc, fetch and hook runs and kills each at a seeded
// random moment.
func (f *fixture) kills(t *testing.T, tl *tally, n int) {
	dir := f.clone(t)
	rng := rand.New(rand.NewSource(23))
	for i := 0; i < n; i++ {
		op := killOps[i%len(killOps)]
		args := op.prepare(f, t, dir)
		cmd := exec.Command(f.bin, append([]string{"--dir", dir}, args...)...)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(rng.Intn(400)) * time.Millisecond)
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
		what := fmt.Sprintf("kill %d: %s", i, op.name)
		for _, bad := range f.searchSome(dir, tl, []int{i % 4, (i + 2) % 4}) {
			t.Errorf("%s: %s", what, bad)
		}
		f.repairAndVerify(t, dir, what, (i+1)%4)
	}
}

// twoIndexers runs two indexers of an empty store at once: one waits for
// the other, and both end with the index whole.
func (f *fixture) twoIndexers(t *testing.T, tl *tally) {
	dir := f.clone(t)
	os.RemoveAll(filepath.Join(dir, ".git", "bcindex"))
	var cmds []*exec.Cmd
	for i := 0; i < 2; i++ {
		cmd := exec.Command(f.bin, "--dir", dir, "index")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, cmd)
	}
	for _, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Errorf("one of two indexers: %v", err)
		}
	}
	for _, bad := range f.searchAll(dir, tl, "--no-index") {
		t.Errorf("two indexers: %s", bad)
	}
}

// diskFull runs the indexer with a file-size limit, so that its writes fail
// the way they do on a full disk (EFBIG instead of ENOSPC).
func (f *fixture) diskFull(t *testing.T, tl *tally) {
	dir := f.clone(t)
	for _, limitKB := range []int{4, 64, 512} {
		os.RemoveAll(filepath.Join(dir, ".git", "bcindex"))
		cmd := exec.Command("bash", "-c", "ulimit -f "+strconv.Itoa(limitKB)+"; exec \"$0\" --dir \"$1\" index", f.bin, dir)
		out, _ := cmd.CombinedOutput()
		if isPanic(string(out)) {
			tl.add(panicked)
			t.Errorf("index with %d KiB files: %s", limitKB, out)
		}
		for _, bad := range f.searchAll(dir, tl, "--no-index") {
			t.Errorf("after a full disk (%d KiB): %s", limitKB, bad)
		}
		f.repairAndVerify(t, dir, fmt.Sprintf("full disk (%d KiB)", limitKB))
	}
}

// readOnly searches a repository whose .git cannot be written: a complete
// index answers, a missing one fails with a message.
func (f *fixture) readOnly(t *testing.T, tl *tally) {
	dir := f.clone(t)
	lock := func(ro bool) {
		mode := "u+w"
		if ro {
			mode = "a-w"
		}
		if out, err := exec.Command("chmod", "-R", mode, filepath.Join(dir, ".git")).CombinedOutput(); err != nil {
			t.Fatalf("chmod: %v %s", err, out)
		}
	}
	asUser := func(args ...string) (int, string, string) { return f.run(dir, args...) }
	if os.Geteuid() == 0 {
		// root writes anywhere: search as nobody instead.
		asUser = func(args ...string) (int, string, string) { return f.runAs(dir, 65534, args...) }
		exec.Command("chmod", "-R", "a+rX", filepath.Dir(dir)).Run()
		os.Chmod(filepath.Dir(f.bin), 0o755)
		// nobody must reach the repository; t.TempDir makes 0700. Only the
		// directories others cannot enter are opened, so the system's /tmp
		// (1777) and its parents keep their modes.
		for p := filepath.Dir(dir); p != "/"; p = filepath.Dir(p) {
			fi, err := os.Stat(p)
			if err != nil {
				break
			}
			if fi.Mode().Perm()&0o001 == 0 {
				os.Chmod(p, fi.Mode().Perm()|0o055)
			}
		}
	}
	lock(true)
	defer lock(false)
	for i, q := range faultQueries {
		code, out, errOut := asUser(append([]string{"search", "--json"}, q.args...)...)
		o := judge(q, code, out, errOut, f.want[i])
		tl.add(o)
		if o != correct {
			t.Errorf("read-only .git, complete index: search %v: exit %d %s", q.args, code, errOut)
		}
	}
	lock(false)
	os.RemoveAll(filepath.Join(dir, ".git", "bcindex"))
	lock(true)
	for i, q := range faultQueries {
		code, out, errOut := asUser(append([]string{"search", "--json"}, q.args...)...)
		o := judge(q, code, out, errOut, f.want[i])
		tl.add(o)
		if o != failedCleanly && o != correct {
			t.Errorf("read-only .git, no index: search %v: exit %d\n%s%s", q.args, code, out, errOut)
		}
	}
}

// runAs runs the binary as another user (root only).
func (f *fixture) runAs(dir string, uid uint32, args ...string) (int, string, string) {
	cmd := exec.Command(f.bin, append([]string{"--dir", dir}, args...)...)
	cmd.Env = append(os.Environ(), "HOME=/tmp", "GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=safe.directory", "GIT_CONFIG_VALUE_0=*")
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uid, Gid: uid}}
	return runCmd(cmd)
}
