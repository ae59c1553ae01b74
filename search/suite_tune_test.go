package search

import (
	"context"
	"flag"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/bcindex/bcindex/embed"
)

var suiteFloor = flag.Bool("suite.floor", false, "quality suite: with -suite.tune, also sweep the no-hit floor")

var suiteTune = flag.String("suite.tune", "", "quality suite: sweep fusion settings on this half (suite-dev) and log each one's fused scores")

// TestSuiteTune is the tool for choosing the fusion defaults: for each
// setting of a grid it logs every dev-half package's fused MRR@10 (docs
// kept and stripped) and exact-name recall@1, next to the best single arm,
// and the fused MRR@10 on the questions of the packages that have them.
//
//	go test ./search -run TestSuiteTune -suite.tune suite-dev -v
func TestSuiteTune(t *testing.T) {
	if *suiteTune == "" {
		t.Skip("run with -suite.tune suite-dev")
	}
	repos := buildSuite(t, *suiteTune)
	if *suiteFloor {
		tuneFloor(t, repos)
		return
	}
	// The single arms do not depend on the fusion settings.
	var lines []string
	for _, s := range repos {
		var best []string
		for _, set := range []string{"doc-kept", "doc-stripped"} {
			repo := s.kept
			if set == "doc-stripped" {
				repo = s.strip
			}
			b := 0.0
			for _, a := range []string{ModeText, ModeVector} {
				b = max(b, evaluateOpts(t, repo, s.docQ, Options{Mode: a}).MRR10)
			}
			best = append(best, fmt.Sprintf("%.3f", b))
		}
		lines = append(lines, fmt.Sprintf("%-12s %-28s best arm %s", s.pkg.Lang, s.pkg.Name, strings.Join(best, " ")))
	}
	t.Logf("best single arm (kept, stripped):\n%s", strings.Join(lines, "\n"))

	for _, g := range tuneGrid() {
		f := defaultFusion()
		g.set(&f)
		hybrid := Options{Mode: ModeHybrid, ranking: &f}
		var rows []string
		var sum [3]float64
		var asked []questionRun
		for _, s := range repos {
			k := evaluateOpts(t, s.kept, s.docQ, hybrid).MRR10
			st := evaluateOpts(t, s.strip, s.docQ, hybrid).MRR10
			n := evaluateOpts(t, s.kept, s.nameQ, hybrid).Recall1
			sum[0], sum[1], sum[2] = sum[0]+k, sum[1]+st, sum[2]+n
			row := fmt.Sprintf("%s %.3f/%.3f/%.3f", s.pkg.Lang, k, st, n)
			if s.quest != nil {
				runs := askQuestions(t, s, hybrid)
				asked = append(asked, runs...)
				row += fmt.Sprintf("/q%.3f", scoreRanks(questionRanks(runs)).MRR10)
			}
			rows = append(rows, row)
		}
		sort.Strings(rows)
		n := float64(len(repos))
		t.Logf("%-40s mean %.3f/%.3f/%.3f questions %.3f | %s", g.name, sum[0]/n, sum[1]/n, sum[2]/n,
			scoreRanks(questionRanks(asked)).MRR10, strings.Join(rows, " "))
	}
}

type tuneSetting struct {
	name string
	set  func(*fusionConfig)
}

func tuneGrid() []tuneSetting {
	out := []tuneSetting{{"rrf", func(f *fusionConfig) { f.convex = false }}}
	for _, g := range [][2]float64{{0.5, 0}, {0.6, 0}, {0.7, 0.6}, {0.7, 0.4}, {0.6, 0.4}, {0.8, 0.6}} {
		out = append(out, tuneSetting{fmt.Sprintf("convex text=%.1f ref=%.1f", g[0], g[1]), func(f *fusionConfig) {
			f.convex, f.convexText, f.coverageRef = true, g[0], g[1]
		}})
	}
	return out
}

// nonsense are queries no code answers: the hybrid should find no hit.
var nonsense = []string{"zzqqxxnotaword", "qwpzxvbn", "flurbish grontle wexmap", "xkcdqz vbnmtr plokij", "asdfghjklqwe", "zzzz yyyy xxxx wwww", "blorptangle snorfwizzle"}

// tuneFloor is the tool for choosing noHitFloor: per floor, the
// dev half's recall@10 (docs kept, stripped, exact names) and how many
// nonsense queries still get a hit, with the default fusion settings.
func tuneFloor(t *testing.T, repos []suiteRepos) {
	for _, floor := range []float64{0.2, 0.25, 0.3, 0.35} {
		f := defaultFusion()
		f.noHitFloor = floor
		hybrid := Options{Mode: ModeHybrid, ranking: &f}
		var r [3]float64
		hits := 0
		for _, s := range repos {
			r[0] += evaluateOpts(t, s.kept, s.docQ, hybrid).Recall10
			r[1] += evaluateOpts(t, s.strip, s.docQ, hybrid).Recall10
			r[2] += evaluateOpts(t, s.kept, s.nameQ, hybrid).Recall10
			for _, q := range nonsense {
				o := hybrid
				o.Query, o.K, o.Embedder, o.MaxLines = q, 10, embed.Default(), 1
				res, err := SearchIndexed(context.Background(), s.kept, o)
				if err != nil {
					t.Fatal(err)
				}
				if len(res.Hits) > 0 {
					hits++
				}
			}
		}
		n := float64(len(repos))
		t.Logf("floor %.2f: recall@10 kept %.3f stripped %.3f names %.3f; nonsense with hits %d/%d", floor, r[0]/n, r[1]/n, r[2]/n, hits, len(repos)*len(nonsense))
	}
}
