package search

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
)

// SetRankingKnobs changes ranking constants for every query until the
// returned function restores them: the dev suite's tuning tool
// (devsuite_test.go, an external test package) sweeps them by name.
// knobs is "name=value,name=value".
func SetRankingKnobs(knobs string) (restore func(), err error) {
	var sets []func(*fusionConfig)
	for _, kv := range strings.Split(knobs, ",") {
		kv = strings.TrimSpace(kv)
		if kv == "" {
			continue
		}
		name, val, ok := strings.Cut(kv, "=")
		if !ok {
			return nil, fmt.Errorf("knob %q: want name=value", kv)
		}
		x, err := strconv.ParseFloat(val, 64)
		if err != nil {
			return nil, fmt.Errorf("knob %q: %w", kv, err)
		}
		set, ok := knobSetters[name]
		if !ok {
			return nil, fmt.Errorf("unknown knob %q", name)
		}
		sets = append(sets, func(f *fusionConfig) { set(f, x) })
	}
	prev := fusionTweak
	fusionTweak = func(f *fusionConfig) {
		if prev != nil {
			prev(f)
		}
		for _, s := range sets {
			s(f)
		}
	}
	return func() { fusionTweak = prev }, nil
}

var knobSetters = map[string]func(*fusionConfig, float64){
	// rerank: 0 none (the default), 1 the chunks' learned second stage,
	// 2 the files' (with the first stage it was trained on).
	"rerank": func(f *fusionConfig, x float64) {
		switch x {
		case 0:
			f.rerank = nil
		case 1:
			f.rerank = shipped(builtinRerank)
		case 2:
			f.rerank = shipped(builtinFilesRerank)
			f.filesFirstStage()
		}
	},
	"liftBlocks":   func(f *fusionConfig, x float64) { f.liftBlocks = x != 0 },
	"fileCap":      func(f *fusionConfig, x float64) { f.fileCap = int(x) },
	"spelledBoost": func(f *fusionConfig, x float64) { f.spelledBoost = x },
	"pathBoost":    func(f *fusionConfig, x float64) { f.pathBoost = x },
	"vectorMinMax": func(f *fusionConfig, x float64) { f.vectorMinMax = x != 0 },
	"convexText":   func(f *fusionConfig, x float64) { f.convexText = x },
	"convexSymbol": func(f *fusionConfig, x float64) { f.convexSymbol = x },
	"coverageRef":  func(f *fusionConfig, x float64) { f.coverageRef = x },
	"typePrior":    func(f *fusionConfig, x float64) { f.typePrior = x },
	"valuePrior":   func(f *fusionConfig, x float64) { f.valuePrior = x },
	"noHitFloor":   func(f *fusionConfig, x float64) { f.noHitFloor = x },
	"fileText":     func(f *fusionConfig, x float64) { f.fileText = x },
	"fileTextName": func(f *fusionConfig, x float64) { f.fileTextName = x },
	"nameFile":     func(f *fusionConfig, x float64) { f.nameFile = x },
	"priors":       func(f *fusionConfig, x float64) { f.priors = x != 0 },
	"coherence":    func(f *fusionConfig, x float64) { f.coherence = x },
	"fileDecay":    func(f *fusionConfig, x float64) { f.fileDecay = x },
	"nameDecay":    func(f *fusionConfig, x float64) { f.nameDecay = x },
	"stemWeight":   func(f *fusionConfig, x float64) { f.stemWeight = x },
	"pathWeight":   func(f *fusionConfig, x float64) { f.pathWeight = x },
	"poolFiles":    func(f *fusionConfig, x float64) { f.poolFiles = int(x) },
	"windows":      func(f *fusionConfig, x float64) { f.windowChars = int(x) },
	"windowLines":  func(f *fusionConfig, x float64) { f.windowLines = x != 0 },
	"windowTop":    func(f *fusionConfig, x float64) { f.windowTop = x != 0 },
	"textAll":      func(f *fusionConfig, x float64) { f.textAll = x != 0 },
}

// PoolQuery and PoolRow are the second stage's training data (rerank_data_test.go),
// for the dev suite's collector (devsuite_pools_test.go).
type (
	PoolQuery = poolQuery
	PoolRow   = poolRow
)

// PoolCand is one candidate of a hybrid query's pool, where it lies.
type PoolCand struct {
	Row                PoolRow
	Path               string
	StartLine, EndLine int
}

// CollectPools hands every hybrid query's pool to fn (ranked by the first
// stage only) until restore is called.
func CollectPools(fn func(query string, pool []PoolCand)) (restore func()) {
	prev := fusionTweak
	fusionTweak = func(f *fusionConfig) {
		if prev != nil {
			prev(f)
		}
		f.rerank = nil
		f.collect = func(v *view, raw string, _ []arm, _ []fused, pool []rerankCand) {
			out := make([]PoolCand, len(pool))
			for i, c := range pool {
				seg := v.snap.Segments[c.key[0]]
				row := seg.Row(c.key[1])
				owner := c.key[1]
				for r := seg.Row(owner); r.Kind == "block" && r.Parent >= 0; r = seg.Row(owner) {
					owner = r.Parent
				}
				out[i] = PoolCand{Row: poolRow{X: c.x, Owner: [2]int{c.key[0], owner}, Hash: row.Hash, Indexed: row.Indexed,
					File: [2]int{c.key[0], seg.BlobFirst(c.key[1])}},
					Path: v.pathOf(c.key[0], c.key[1]), StartLine: row.StartLine, EndLine: row.EndLine}
			}
			fn(raw, out)
		}
	}
	return func() { fusionTweak = prev }
}

// SetDevPools registers the dev suite's collector with the training tool.
func SetDevPools(fn func(testing.TB) []PoolQuery) { devSuitePools = fn }
