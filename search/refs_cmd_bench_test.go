package search

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// BenchmarkManyRefsCommand is BenchmarkManyRefs as a user meets it: the
// whole `git bcindex search` command, process start to exit, over the
// newest release branch and over every release branch (--ref
// 'release/*'), in turns, on the same corpus. It reports the medians of
// the command's wall time and CPU time (user and system, of the child
// process) and their ratios, 50 refs ÷ 1 ref. The binary is built from
// this tree with the environment's GOEXPERIMENT, as install.sh builds it,
// unless BCINDEX_BENCH_BIN names one (to compare builds on one corpus).
func BenchmarkManyRefsCommand(b *testing.B) {
	dir, versions := refsCorpus(b)
	bin := os.Getenv("BCINDEX_BENCH_BIN")
	if bin == "" {
		bin = filepath.Join(b.TempDir(), "git-bcindex")
		build := exec.Command("go", "build", "-tags", "nocluster", "-o", bin, "../cmd/git-bcindex")
		if out, err := build.CombinedOutput(); err != nil {
			b.Fatalf("go build: %v\n%s", err, out)
		}
	}
	queries := refsBenchQueries[refsModule()]
	if q := os.Getenv("BCINDEX_BENCH_REFS_QUERIES"); q != "" {
		queries = strings.Split(q, ";")
	}
	if len(queries) == 0 {
		queries = []string{"retry with backoff", "Close"}
	}
	run := func(q, ref string) refSample {
		cmd := exec.Command(bin, "search", "--no-index", "--json", "--ref", ref, q)
		cmd.Dir = dir
		t0 := time.Now()
		out, err := cmd.Output()
		wall := time.Since(t0)
		if err != nil || len(out) == 0 {
			b.Fatalf("git bcindex search --ref %s %q: %v, %d bytes out", ref, q, err, len(out))
		}
		cpu := cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
		return refSample{float64(wall.Microseconds()) / 1e3, float64(cpu.Microseconds()) / 1e3}
	}
	var ones, manys []refSample
	for i := 0; i < b.N; i++ {
		for _, q := range queries {
			ones = append(ones, run(q, "release/"+versions[len(versions)-1]))
			manys = append(manys, run(q, "release/*"))
		}
	}
	n := fmt.Sprintf("%drefs", len(versions))
	b.ReportMetric(med(ones, false), "cmd-ms-1ref")
	b.ReportMetric(med(manys, false), "cmd-ms-"+n)
	b.ReportMetric(med(ones, true), "cmd-cpu-ms-1ref")
	b.ReportMetric(med(manys, true), "cmd-cpu-ms-"+n)
	b.ReportMetric(med(manys, false)/med(ones, false), "cmd-wall-ratio")
	b.ReportMetric(med(manys, true)/med(ones, true), "cmd-cpu-ratio")
}
