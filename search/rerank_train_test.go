package search

import (
	"encoding/json"
	"flag"
	"fmt"
	"maps"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"
)

var (
	rerankTrain   = flag.Bool("rerank.train", false, "train the hybrid's second stage on the quality suite's dev half; with -update, write rerank_model.json")
	rerankSweep   = flag.Bool("rerank.sweep", false, "with -rerank.train: cross-validate each setting of fitSweep and stop")
	rerankSampleN = flag.Int("rerank.sample", 0, "with -rerank.train: at most this many of each package's queries per set (0: all)")
	rerankNoCV    = flag.Bool("rerank.nocv", false, "with -rerank.train: train on everything without cross-validating first")
	rerankGrid    = flag.String("rerank.grid", "", "with -rerank.sweep: the training settings to compare, name=value,...; variants separated by ';'")
	rerankCache   = flag.String("rerank.cache", "", "with -rerank.train: keep the collected pools in this file (read it when it exists)")
	rerankFiles   = flag.Bool("rerank.files", false, "with -rerank.train: train the files' model (search --files) on the quality suite's dev half and the dev suite (-dev.repos), with the files' first stage; with -update, write rerank_files_model.json")
)

// The shipped models, embedded by rerank.go.
const (
	rerankModelFile      = "rerank_model.json"
	rerankFilesModelFile = "rerank_files_model.json"
)

// cvFolds is how many folds cross-validation holds out in turn.
const cvFolds = 7

// rerankSample bounds each package's queries per set, so that no package
// (openjdk's 800) outweighs the others.
const rerankSample = 250

// TestRerankTrain is the tool that makes the second stage's model: it
// collects every dev-half query's pool (docs kept, docs stripped, and the
// questions of the packages that have them; a name is left to the first
// stage), cross-validates by package (train on the others, score the one
// left out) next to each arm alone, the first stage and the per-query
// oracle of the better arm, then trains on every dev package and, with
// -update, writes the model.
//
//	go test ./search -run TestRerankTrain -rerank.train -update -v
//
// With -rerank.files it makes the files' model (search --files) instead:
// the pools as the files' first stage makes them, the dev code-search
// suite's pools with them (devsuite_pools_test.go), cross-validated by
// package and repository in folds, at each decay of a file's later rows.
//
//	go test ./search -run TestRerankTrain -rerank.train -rerank.files -dev.repos DIR -dev.work DIR -update -v
//
// The test half is never read here.
func TestRerankTrain(t *testing.T) {
	if !*rerankTrain {
		t.Skip("run with -rerank.train")
	}
	o, file := defaultFit(), rerankModelFile
	if *rerankFiles {
		o, file = filesFit(), rerankFilesModelFile
		// The pools as the files' first stage makes them.
		prev := fusionTweak
		fusionTweak = func(f *fusionConfig) {
			if prev != nil {
				prev(f)
			}
			f.filesFirstStage()
		}
		defer func() { fusionTweak = prev }()
	}
	if *rerankGrid != "" {
		o = fitSweep(o)[0].o
	}
	var pools []poolQuery
	if *rerankCache == "" || loadGob(*rerankCache, &pools) != nil {
		pools = collectDev(t)
		if devSuitePools != nil && *rerankFiles {
			pools = append(pools, devSuitePools(t)...)
		}
		if *rerankCache != "" {
			if err := saveGob(*rerankCache, pools); err != nil {
				t.Fatal(err)
			}
		}
	}
	t.Logf("pools:\n%s", poolRecall(pools))
	decays := []decaySetting{{1, 0}, {0.9, 0}, {0.8, 0}, {0.5, 0}, {0.5, 1}, {0.01, 0}}
	if *rerankSampleN > 0 {
		pools = samplePools(pools, *rerankSampleN)
	}
	if *rerankSweep {
		for _, g := range fitSweep(o) {
			t.Logf("%s:\n%s", g.name, jointTable(pools, jointCV(pools, g.o, cvFolds), decays))
		}
		return
	}
	if !*rerankNoCV {
		t.Logf("held-out fold (cross-validation):\n%s", jointTable(pools, jointCV(pools, o, cvFolds), decays))
	}
	var quality []poolQuery
	for _, q := range pools {
		if q.Set != devSuiteSet {
			quality = append(quality, q)
		}
	}
	if !*rerankNoCV {
		t.Logf("held-out package (cross-validation), the quality suite:\n%s", crossValidate(quality, o))
	}
	m := fit(pools, o)
	t.Logf("trained on every dev package, scored on them:\n%s", simTable(quality, func(string) *rerankModel { return m }))
	if *update {
		m.Note = fmt.Sprintf("trained by TestRerankTrain on the quality suite's dev half (%d queries): go test ./search -run TestRerankTrain -rerank.train -update", len(pools))
		if *rerankFiles {
			m.Note = fmt.Sprintf("trained by TestRerankTrain on the quality suite's dev half and the dev code-search suite (%d queries): go test ./search -run TestRerankTrain -rerank.train -rerank.files -dev.repos DIR -update", len(pools))
		}
		b, _ := json.MarshalIndent(m, "", " ")
		if err := os.WriteFile(file, append(b, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var ws []string
	for i, w := range m.Weights {
		ws = append(ws, fmt.Sprintf("%s %.2f", rerankFeatureNames[i], w))
	}
	t.Logf("weights: %s", strings.Join(ws, ", "))
}

// collectDev collects the pools of the dev half's queries.
func collectDev(t *testing.T) []poolQuery {
	var out []poolQuery
	for _, s := range buildSuite(t, "suite-dev") {
		doc := sample(s.pkg.Doc, rerankSample)
		out = append(out, collectPools(t, s.kept, docAsked(doc), s.pkg.Name, s.pkg.Lang, "doc-kept")...)
		out = append(out, collectPools(t, s.strip, docAsked(doc), s.pkg.Name, s.pkg.Lang, "doc-stripped")...)
		if s.quest != nil {
			var qs []asked
			for _, q := range s.pkg.Questions {
				qs = append(qs, asked{q.Question, questionAnswers(q)})
			}
			out = append(out, collectPools(t, s.quest, qs, s.pkg.Name, s.pkg.Lang, "questions")...)
		}
	}
	return out
}

// crossValidate trains once per dev package on the others and scores the
// package left out.
func crossValidate(pools []poolQuery, o fitOptions) string {
	models := map[string]*rerankModel{}
	for _, p := range pools {
		if _, ok := models[p.Pkg]; ok {
			continue
		}
		var train []poolQuery
		for _, q := range pools {
			if q.Pkg != p.Pkg {
				train = append(train, q)
			}
		}
		models[p.Pkg] = fit(train, o)
	}
	return simTable(pools, func(pkg string) *rerankModel { return models[pkg] })
}

// simTable reports, per package and set, MRR@10 of each arm alone, the
// first stage, the per-query oracle of the better arm, and the model
// model(pkg) gives, with the mean over packages.
func simTable(pools []poolQuery, model func(pkg string) *rerankModel) string {
	type key struct{ lang, set string }
	type acc struct{ text, vec, first, firstSim, oracle, model, n float64 }
	sums := map[key]*acc{}
	for _, q := range pools {
		k := key{q.Lang, q.Set}
		if sums[k] == nil {
			sums[k] = &acc{}
		}
		a := sums[k]
		a.text += q.RR[ModeText]
		a.vec += q.RR[ModeVector]
		a.first += q.RR["first"]
		a.oracle += max(q.RR[ModeText], q.RR[ModeVector])
		a.firstSim += simRR(q.Rows, firstOrder)
		a.model += simRR(q.Rows, modelOrder(model(q.Pkg)))
		a.n++
	}
	var keys []key
	for k := range sums {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].set != keys[j].set {
			return keys[i].set < keys[j].set
		}
		return keys[i].lang < keys[j].lang
	})
	var b strings.Builder
	fmt.Fprintf(&b, "%-13s %-11s %5s  text   vec    first  (sim)  oracle model  Δ\n", "set", "lang", "n")
	mean := map[string]*acc{}
	for _, k := range keys {
		a := sums[k]
		n := a.n
		fmt.Fprintf(&b, "%-13s %-11s %5.0f  %.3f  %.3f  %.3f  %.3f  %.3f  %.3f  %+.3f\n", k.set, k.lang, n,
			a.text/n, a.vec/n, a.first/n, a.firstSim/n, a.oracle/n, a.model/n, (a.model-a.firstSim)/n)
		if mean[k.set] == nil {
			mean[k.set] = &acc{}
		}
		m := mean[k.set]
		m.text, m.vec, m.first, m.firstSim, m.oracle, m.model, m.n = m.text+a.text/n, m.vec+a.vec/n, m.first+a.first/n, m.firstSim+a.firstSim/n, m.oracle+a.oracle/n, m.model+a.model/n, m.n+1
	}
	for _, set := range []string{"doc-kept", "doc-stripped", "exact-name", "questions"} {
		if m := mean[set]; m != nil {
			n := m.n
			fmt.Fprintf(&b, "%-13s %-11s %5s  %.3f  %.3f  %.3f  %.3f  %.3f  %.3f  %+.3f\n", set, "MEAN", "", m.text/n, m.vec/n, m.first/n, m.firstSim/n, m.oracle/n, m.model/n, (m.model-m.firstSim)/n)
		}
	}
	return b.String()
}

// fitSweep are the training settings the sweep compares: -rerank.grid's
// variants of base (separated by ';', each name=value,...: dev,
// questions, rounds, depth, epochs, l2), or a default grid.
func fitSweep(base fitOptions) []struct {
	name string
	o    fitOptions
} {
	type setting = struct {
		name string
		o    fitOptions
	}
	grid := *rerankGrid
	if grid == "" {
		grid = "dev=5;dev=2;dev=10;dev=5,rounds=40"
	}
	var out []setting
	for _, v := range strings.Split(grid, ";") {
		o := base
		o.weight = maps.Clone(o.weight)
		for _, kv := range strings.Split(v, ",") {
			name, val, _ := strings.Cut(strings.TrimSpace(kv), "=")
			x, _ := strconv.ParseFloat(val, 64)
			switch name {
			case "dev":
				o.weight[devSuiteSet] = x
			case "questions":
				o.weight["questions"] = x
			case "kept":
				o.weight["doc-kept"] = x
			case "stripped":
				o.weight["doc-stripped"] = x
			case "rounds":
				o.trees.rounds = int(x)
			case "depth":
				o.trees.depth = int(x)
			case "epochs":
				o.epochs = int(x)
			case "l2":
				o.l2 = x
			case "shrink":
				o.trees.shrink = x
			case "union":
				o.union = x != 0
			case "old":
				// The features before the file's only.
				o.firstFeatures(fFileText)
			}
		}
		out = append(out, setting{v, o})
	}
	return out
}

// samplePools keeps at most n queries of each package and set, evenly
// spaced.
func samplePools(pools []poolQuery, n int) []poolQuery {
	by := map[[2]string][]poolQuery{}
	var keys [][2]string
	for _, q := range pools {
		k := [2]string{q.Set, q.Pkg}
		if by[k] == nil {
			keys = append(keys, k)
		}
		by[k] = append(by[k], q)
	}
	var out []poolQuery
	for _, k := range keys {
		qs := by[k]
		if len(qs) <= n || k[0] == devSuiteSet {
			out = append(out, qs...)
			continue
		}
		for i := range n {
			out = append(out, qs[i*len(qs)/n])
		}
	}
	return out
}
