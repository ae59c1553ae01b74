package search

import (
	"fmt"
	"strconv"
	"strings"
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
	"rerank": func(f *fusionConfig, x float64) {
		if x == 0 {
			f.rerank = nil
		}
	},
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
}
