package search

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/indexer"
)

// Multi-ref benchmark corpus: the last releases of a real project from the
// Go module proxy, committed in version order with each release's date,
// each tagged and given a release branch. The Pulumi SDK releases weekly
// in small steps, so its branches share most of their content (the union
// of 50 releases holds ~1.4× the distinct chunks of the newest one).
// BCINDEX_BENCH_REFS_MODULE and BCINDEX_BENCH_REFS_N choose another module
// and count, and BCINDEX_BENCH_REFS_QUERIES (separated by ";") the queries
// for it; github.com/nats-io/nats-server/v2 is the contrasting case, five
// minor lines whose union holds ~1.7× a release's distinct chunks.
const (
	refsBenchModule   = "github.com/pulumi/pulumi/sdk/v3"
	refsBenchVersions = 50
)

// refsBenchQueries are the default module's queries; another module's
// default is a generic set unless BCINDEX_BENCH_REFS_QUERIES names some.
var refsBenchQueries = map[string][]string{
	"github.com/pulumi/pulumi/sdk/v3":   {"register resource outputs", "StackReference", "read the plugin manifest", "ignoreChanges"},
	"github.com/nats-io/nats-server/v2": {"stream consumer ack pending", "raftNode", "parse the client connect options", "MaxPayload"},
}

// refsCorpus builds (once, cached under $HOME/.cache/bcindex-bench-refs)
// and indexes the repository; it returns its directory and release names,
// newest last.
func refsCorpus(b *testing.B) (string, []string) {
	b.Helper()
	if os.Getenv("BCINDEX_BENCH_REFS") == "" {
		b.Skip("set BCINDEX_BENCH_REFS=1 to fetch the release corpus from the module proxy and run it")
	}
	mod, n := refsModule(), refsBenchVersions
	if s := os.Getenv("BCINDEX_BENCH_REFS_N"); s != "" {
		fmt.Sscan(s, &n)
	}
	home, _ := os.UserHomeDir()
	dir := filepath.Join(home, ".cache", "bcindex-bench-refs", strings.NewReplacer("/", "_").Replace(mod)+fmt.Sprintf("-%d-dated", n))
	versions := moduleVersions(b, mod, n)
	buildReleaseRepo(b, dir, mod, versions)
	repo, err := gitindex.OpenRepo(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer repo.Close()
	if _, err := indexer.NewIndexer(repo, indexer.Options{Embedder: embed.Default()}).Index(context.Background(), versions, time.Minute); err != nil {
		b.Fatal(err)
	}
	return dir, versions
}

// refsModule is the module whose releases make the corpus.
func refsModule() string {
	if m := os.Getenv("BCINDEX_BENCH_REFS_MODULE"); m != "" {
		return m
	}
	return refsBenchModule
}

// moduleVersions lists the module's last n releases (semver order), leaving
// out builds that are no release of the source (-binary, -fips).
func moduleVersions(b *testing.B, mod string, n int) []string {
	out, err := exec.Command("go", "list", "-m", "-versions", mod).Output()
	if err != nil {
		b.Fatalf("go list -m -versions %s: %v", mod, err)
	}
	var vs []string
	for _, v := range strings.Fields(string(out))[1:] {
		if !strings.Contains(v, "-binary") && !strings.Contains(v, "-fips") {
			vs = append(vs, v)
		}
	}
	if len(vs) < n {
		b.Fatalf("%s has %d releases, want %d", mod, len(vs), n)
	}
	return vs[len(vs)-n:]
}

// buildReleaseRepo commits each release's module tree on main (read from
// the module cache, without copying), tags it and branches release/<v>.
// It resumes after the last release committed.
func buildReleaseRepo(b *testing.B, dir, mod string, versions []string) {
	date := "2024-01-01T00:00:00Z"
	git := func(workTree string, args ...string) {
		cmd := exec.Command("git", append([]string{"--git-dir", filepath.Join(dir, ".git"), "--work-tree", workTree}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_AUTHOR_NAME=bench", "GIT_AUTHOR_EMAIL=bench@example.com",
			"GIT_COMMITTER_NAME=bench", "GIT_COMMITTER_EMAIL=bench@example.com", "GIT_AUTHOR_DATE="+date, "GIT_COMMITTER_DATE="+date)
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, ".git")); err != nil {
		git(dir, "init", "-q", "-b", "main")
	}
	built := false
	for _, v := range versions {
		if exec.Command("git", "-C", dir, "rev-parse", "-q", "--verify", "refs/tags/"+v).Run() == nil {
			continue
		}
		built = true
		var out []byte
		var err error
		for try := 0; try < 3; try++ { // the proxy fails a request now and then
			if out, err = exec.Command("go", "mod", "download", "-json", mod+"@"+v).Output(); err == nil {
				break
			}
		}
		if err != nil {
			b.Fatalf("go mod download %s@%s: %v\n%s", mod, v, err, out)
		}
		var info struct{ Dir, Time string }
		if err := json.Unmarshal(out, &info); err != nil || info.Dir == "" {
			b.Fatalf("go mod download %s@%s: no directory", mod, v)
		}
		if info.Time != "" {
			date = info.Time // the release's date, as its history has it
		}
		git(info.Dir, "add", "-A", ".")
		git(info.Dir, "commit", "-q", "--allow-empty", "-m", "release "+v)
		git(info.Dir, "tag", v)
		git(info.Dir, "branch", "release/"+v)
	}
	if built {
		git(dir, "gc", "-q")
	}
}

// BenchmarkManyRefs searches one release branch, then every release branch
// (--ref 'release/*'): one view over the union of their trees, ranked once,
// with each hit naming its branches. The two run in turns, so that both
// meet the same neighbours on a shared machine; each reports its median
// wall and CPU time per query (CPU time is what the machine's other
// tenants cannot inflate), the ratios 50 refs ÷ 1 ref, and the peak heap;
// content-ratio is the distinct chunk contents of all the branches ÷ the
// newest one's, the ratio a search's cost should follow.
func BenchmarkManyRefs(b *testing.B) {
	dir, versions := refsCorpus(b)
	repo, err := gitindex.OpenRepo(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer repo.Close()
	emb := embed.Default()
	queries := refsBenchQueries[refsModule()]
	if queries == nil {
		queries = []string{"retry with backoff", "parse the configuration file", "Close", "context deadline exceeded"}
	}
	if q := os.Getenv("BCINDEX_BENCH_REFS_QUERIES"); q != "" {
		queries = strings.Split(q, ";")
	}
	one := gitindex.RefSelection{Patterns: []string{"release/" + versions[len(versions)-1]}}
	many := gitindex.RefSelection{Patterns: []string{"release/*"}}
	rowsOne, distinctOne := contentCount(b, repo, one)
	rowsMany, distinctMany := contentCount(b, repo, many)
	b.Logf("%s %s..%s: %d refs show %d chunk rows, %d distinct contents; the newest shows %d rows, %d distinct contents (%.2f×)",
		refsModule(), versions[0], versions[len(versions)-1], len(versions), rowsMany, distinctMany, rowsOne, distinctOne,
		float64(distinctMany)/float64(distinctOne))
	var ones, manys []refSample
	var peakOne, peakMany uint64
	measure := func(q string, sel gitindex.RefSelection, want int, peak *uint64) refSample {
		c0, t0 := cpuTime(), time.Now()
		var res *Result
		var err error
		// Labelled, so that a -cpuprofile splits by arm: pprof -tagfocus=refs:50.
		pprof.Do(context.Background(), pprof.Labels("refs", fmt.Sprint(want)), func(ctx context.Context) {
			res, err = SearchIndexed(ctx, repo, Options{Query: q, Refs: sel, Embedder: emb})
		})
		s := refSample{float64(time.Since(t0).Microseconds()) / 1e3, (cpuTime() - c0).Seconds() * 1e3}
		if err != nil {
			b.Fatal(err)
		}
		if len(res.Revisions) != want || len(res.Hits) == 0 || len(res.Hits[0].Refs) == 0 {
			b.Fatalf("%q over %d revisions: %d hits", q, len(res.Revisions), len(res.Hits))
		}
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		*peak = max(*peak, m.HeapInuse)
		return s
	}
	runtime.GC() // the peaks are the queries', not what opening the corpus left
	for i := 0; i < b.N; i++ {
		for _, q := range queries {
			ones = append(ones, measure(q, one, 1, &peakOne))
			manys = append(manys, measure(q, many, len(versions), &peakMany))
		}
	}
	b.ReportMetric(med(ones, false), "ms-1ref")
	b.ReportMetric(med(manys, false), fmt.Sprintf("ms-%drefs", len(versions)))
	b.ReportMetric(med(ones, true), "cpu-ms-1ref")
	b.ReportMetric(med(manys, true), fmt.Sprintf("cpu-ms-%drefs", len(versions)))
	b.ReportMetric(med(manys, false)/med(ones, false), "wall-ratio")
	b.ReportMetric(med(manys, true)/med(ones, true), "cpu-ratio")
	b.ReportMetric(float64(peakOne)/(1<<20), "MiB-heap-1ref")
	b.ReportMetric(float64(peakMany)/(1<<20), fmt.Sprintf("MiB-heap-%drefs", len(versions)))
	b.ReportMetric(float64(distinctMany)/float64(distinctOne), "content-ratio")
}

// refSample is one query's wall and CPU time, in milliseconds.
type refSample struct{ wall, cpu float64 }

// med is the median of the samples' CPU times, or of their wall times.
func med(ss []refSample, cpu bool) float64 {
	xs := make([]float64, len(ss))
	for i, s := range ss {
		xs[i] = s.wall
		if cpu {
			xs[i] = s.cpu
		}
	}
	sort.Float64s(xs)
	return xs[len(xs)/2]
}

// cpuTime is the CPU time the process has used, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
