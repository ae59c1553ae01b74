package search

import (
	"path"
	"sort"
	"strings"

	"github.com/bcindex/bcindex/chunk"
	"github.com/bcindex/bcindex/lexical"
	"github.com/bcindex/bcindex/query"
	"github.com/bcindex/bcindex/segment"
)

// fusionConfig holds the ranking constants. A hybrid query fuses its arms by a
// convex combination of their normalised scores (convex.go): the text arm's
// share convexText, reduced when its top hit covers less than coverageRef
// of the query and lacks some of its words, the vector arm the rest, the
// symbol arm convexSymbol on top; hits whose fused evidence is below
// noHitFloor are dropped; types rank below code for a query in words
// (typePrior). One arm alone, and similar's arms, are ranked by
// reciprocal-rank fusion: a hit at rank r contributes weight/(k+r)
// (singleK for one arm, where k only sets how far the code-aware
// multipliers can reorder it), with textConfidence added to a BM25 winner
// times its margin over the second when it covers at least coverageFloor
// of the query. The hybrid settings were tuned on the quality suite's dev
// half only (suite_tune_test.go), never on its test half nor on the
// packages reserved for independent evaluation.
type fusionConfig struct {
	k              float64
	weights        map[string]float64
	singleK        float64
	textConfidence float64
	coverageFloor  float64
	// Score-aware fusion of the hybrid (convex.go): the text arm's share of
	// the weight (the vector arm has the rest) and the symbol arm's weight.
	convex       bool
	convexText   float64
	convexSymbol float64
	coverageRef  float64 // see convexWeights; 0: fixed weights
	allTerms     float64 // see convexWeights: the IDF share of the query's words a top hit must hold for the text share to stay
	// typePrior multiplies a type's score (class, struct, interface, enum,
	// trait, module, impl, type, const) for a query of three words or
	// more, in every mode: a query in words more often asks what code
	// does, which a function answers, than what a type is. On the dev
	// half, 0.8 raised the hybrid's MRR@10 with docs stripped in every
	// language (mean +0.02) and lowered it in none with docs kept.
	typePrior float64
	// valuePrior multiplies the score of a top-level variable or constant
	// (a one-line declaration, most often) for a query of three words or
	// more, on top of typePrior for a constant: a value answers a question
	// in words less often than the code that uses it.
	valuePrior   float64
	vectorMinMax bool // min-max normalise the vector arm's candidates
	// noHitFloor is the least evidence (convexScores: the sum of the arms'
	// normalised scores) a hybrid hit needs, so that a query matching
	// nothing has no hits rather than the least bad ones. On the dev half,
	// 0.3 left no hit for any of 49 nonsense queries and lost one of 140
	// docs-stripped queries from the top 10; 0.2 lost none but left hits
	// for 10 nonsense queries.
	noHitFloor float64
	// rerank is the hybrid's second stage (rerank.go); nil: the convex
	// fusion's order stands. collect, for the training tool and the
	// benchmark, receives each hybrid query's pool of candidates with their
	// features (see view.rerank).
	rerank  *rerankModel
	collect func(v *view, query string, arms []arm, first []fused, pool []rerankCand)
	// summaryText weighs a generated summary's words against the code's
	// in the text arm (summaries.go). On the dev half, docs stripped, with
	// each function's doc less its first sentence standing in as its
	// summary (ceiling_test.go), the hybrid's mean MRR@10 was 0.518 at 0,
	// 0.531 at 0.25, 0.533 at 0.5, 0.531 at 1 and 0.525 at 2.
	summaryText float64
	// The last stage (arrange.go), tuned on the dev suite
	// (bench/suites/dev, devsuite_test.go): priors of where answers rarely
	// live (prior.go), applied after the second stage; a file's evidence,
	// the sum of its chunks' scores, lifting its best chunk (a share of the
	// best score); and the decay of a file's later hits (1: none). On the
	// dev suite, hybrid NDCG@10 0.667 before the stage: the decay at 0.5
	// gave 0.720, with coherence 0.2 0.721, with the priors 0.727; the
	// file BM25 at 1.5 0.769 (fileText below); nameFile 1.5 0.772. The
	// query's words in the file's name and directory (a share of the best
	// score) lowered it (0.650 at 0.3, 0.632 at 1), and a file's agreement
	// with the query's embedding (its chunks' cosines) moved it by 0.001.
	priors bool
	// fileText is the share of the best score a file's whole-file BM25
	// (filetext.go; over the most a file could score) adds to each of its
	// chunks.
	fileText float64
	// fileTextName is fileText for a name looked up (one identifier, or a
	// qualified one): a long file defining the name holds it fewer times
	// per line than the short files that use it.
	fileTextName float64
	// nameFile multiplies the score of a definition bearing the name
	// looked up in a file named after it.
	nameFile  float64
	coherence float64
	fileDecay float64
	// files is the file stage of a ranking of files (rankFiles).
	files fileStage
	// nameDecay replaces fileDecay for a name looked up (one identifier,
	// or a qualified one), whose first hit is its definition: a file's
	// other hits only push other files' definitions and uses down. On the
	// dev suite's symbol queries, chunk search NDCG@10 0.958 to 0.967.
	nameDecay float64
	// stemWeight is the weight of a query word's other forms in the text
	// arm (stems.go); 0: the word as written only. stemWeight, pathWeight,
	// poolFiles and textAll are the files' first stage (filesFirstStage),
	// off for chunks.
	stemWeight float64
	// pathWeight is the weight of a file's name (twice) and its last
	// directories as a field of each of its chunks in the text arm
	// (paths.go); 0: none.
	pathWeight float64
	// poolFiles is how many of the best files by their own BM25
	// (filetext.go) bring their best chunk into the second stage's pool.
	poolFiles int
	// textAll has the second stage's text feature read a row's BM25 when
	// the row is not among the text arm's candidates (0 otherwise).
	textAll bool
}

// defaultFusion returns the tuned ranking constants every query uses
// unless Options.ranking replaces them (the tuning tools' sweeps). A fresh
// value each call: no query can change another's weights map.
func defaultFusion() fusionConfig {
	f := fusionConfig{
		k:              30,
		weights:        map[string]float64{ModeSymbol: 1, ModeText: 0.5, ModeVector: 2},
		singleK:        10,
		textConfidence: 0.2,
		coverageFloor:  0.4,
		convex:         true,
		convexText:     0.8,
		convexSymbol:   0.3,
		coverageRef:    0.6,
		allTerms:       0.95,
		typePrior:      0.8,
		valuePrior:     0.5,
		noHitFloor:     0.3,
		rerank:         builtinRerank,
		summaryText:    0.5,
		nameFile:       1.5,
		nameDecay:      0.5,
		files: fileStage{priors: true, coherence: 0.2, decay: 0.5, text: 1.5,
			stem: 0.5, path: 2, pool: 10, rerank: builtinFilesRerank},
	}
	if fusionTweak != nil {
		fusionTweak(&f)
	}
	return f
}

// rankFiles sets the file stage for a ranking of files (Options.Files,
// search --files): priors, a file's BM25 and the sum of its chunks'
// scores, and its later chunks decayed from the second on. Chunk search
// keeps them off: they rank files well (dev suite, NDCG@10 0.667 to
// 0.771), and the definitions inside them less well (the quality suite's
// dev half, hybrid MRR@10: docs kept 0.965 to 0.937, docs stripped 0.573
// to 0.474, questions 0.615 to 0.532), the sibling definitions of a file
// that matches as a whole rising with it; even the decay alone, sparing a
// file's first three chunks, lowered eleven of the suite's packages by
// 0.006 to 0.036.
//
// A ranking of files also has its own second stage (filesFirstStage,
// rerank_files_model.json), trained on the quality suite's dev half and
// the dev suite together with the file's features (rerank_features.go):
// on the dev suite, files NDCG@10 0.764 with the chunks' model, 0.790
// with it. The same model ranking chunks gave 0.739 against 0.667, and
// the quality suite's dev half docs kept 0.961 (0.965), docs stripped
// 0.602 (0.573), questions 0.627 (0.615), but lowered thirteen of the
// gate's package scores (testdata/suite.json) by 0.006 to 0.10, so chunk
// search keeps its own model and first stage; the words' other forms
// alone (weight 0.25), with the chunks' model, lowered seventeen.
func (f *fusionConfig) rankFiles() {
	f.priors, f.coherence, f.fileDecay, f.fileText = f.files.priors, f.files.coherence, f.files.decay, f.files.text
	f.filesFirstStage()
	if f.rerank != nil && f.files.rerank != nil {
		f.rerank = f.files.rerank
	}
}

// filesFirstStage sets what the files' second stage was trained on: the
// words' other forms and the path field in the text arm, the best files'
// chunks in the pool, and every row's BM25 as a feature.
func (f *fusionConfig) filesFirstStage() {
	f.stemWeight, f.pathWeight, f.poolFiles, f.textAll = f.files.stem, f.files.path, f.files.pool, true
}

// fileStage is the file stage of a ranking of files (rankFiles).
type fileStage struct {
	priors                 bool
	coherence, decay, text float64
	// stem, path and pool replace stemWeight, pathWeight and poolFiles.
	stem, path float64
	pool       int
	// rerank replaces the chunks' second stage (nil: the chunks' stands),
	// reading every row's BM25 (textAll).
	rerank *rerankModel
}

// chunksOnly turns off what ranks files and names for a query a person
// wrote (arrange.go's file stage, spelled names): similar ranks chunks like
// a given chunk, wherever they are.
func (f *fusionConfig) chunksOnly() {
	f.priors, f.coherence, f.fileDecay, f.fileText, f.fileTextName, f.nameFile = false, 0, 0, 0, 0, 0
}

// fusionTweak, when set, changes the defaults of every query from here
// on: the tuning tools' sweeps over the dev suite (export_test.go).
var fusionTweak func(*fusionConfig)

// fused is a row with its final score.
type fused struct {
	seg, row int
	score    float64
	copies   [][2]int // (segment, row) of the same chunk text elsewhere, collapsed into this hit
}

// fuse merges arm rankings, then applies code-aware adjustments. Every mode
// goes through here, so one arm alone is ranked by the same rules as the
// hybrid. A hybrid query (convex) fuses the arms' normalised scores
// (convex.go); one arm alone, and similar's arms, fuse by weighted RRF.
func (v *view) fuse(q *query.Query, arms []arm, convex bool) []fused {
	var scores, boost map[[2]int]float64
	if convex && len(arms) > 1 && v.fusion.convex {
		var evidence map[[2]int]float64
		scores, boost, evidence = v.fusion.convexScores(arms)
		for k := range scores {
			// Too little evidence from every arm: no hit (see noHitFloor).
			if evidence[k] < v.fusion.noHitFloor {
				delete(scores, k)
			}
		}
	} else {
		scores, boost = v.fusion.rrfScores(arms)
	}
	// A class (or struct, module...) whose member also matched reads as its
	// header: the member is the more specific answer.
	parents := map[[2]int]bool{}
	rows := make(map[[2]int]segment.Row, len(scores))
	for k := range scores {
		row := v.snap.Segments[k[0]].Row(k[1])
		rows[k] = row
		if row.Parent >= 0 {
			parents[[2]int{k[0], row.Parent}] = true
		}
	}
	out := make([]fused, 0, len(scores))
	for k, sc := range scores {
		row := rows[k]
		mult := 1.0
		if b, ok := boost[k]; ok {
			mult *= b
		}
		if parents[k] && isContainer(row.Kind) {
			mult *= 0.8
		}
		mult *= v.fusion.chunkPrior(row.Kind, v.pathOf(k[0], k[1]), q)
		out = append(out, fused{seg: k[0], row: k[1], score: sc * mult})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].score != out[j].score {
			return out[i].score > out[j].score
		}
		if out[i].seg != out[j].seg {
			return out[i].seg < out[j].seg
		}
		return out[i].row < out[j].row
	})
	if convex && len(arms) > 1 && v.fusion.convex {
		out = v.rerank(q, arms, out)
	}
	return v.arrange(q, out)
}

// arm is one ranking handed to fusion.
type arm struct {
	name   string
	weight float64
	cands  []cand
	top    textTop // text arm: its top row
}

// collapse keeps one result per definition: a micro chunk (block) and the
// function it lies in are the same answer, so whichever ranks first stands
// for both (a block hit names its function as parent); and one result per
// chunk text, so code copied into several files shows once, naming the
// other files in also_in.
func (v *view) collapse(in []fused) []fused {
	seen := map[[2]int]bool{}
	sameText := map[[16]byte]int{} // chunk text → index in out
	out := in[:0:0]
	for _, f := range in {
		seg := v.snap.Segments[f.seg]
		owner := f.row
		for r := seg.Row(owner); r.Kind == chunk.KindBlock && r.Parent >= 0; r = seg.Row(owner) {
			owner = r.Parent
		}
		k := [2]int{f.seg, owner}
		if seen[k] {
			continue
		}
		row := seg.Row(f.row)
		if i, ok := sameText[row.Hash]; ok && row.Indexed {
			out[i].copies = append(out[i].copies, [2]int{f.seg, f.row})
			continue
		}
		seen[k] = true
		if row.Indexed {
			sameText[row.Hash] = len(out)
		}
		out = append(out, f)
	}
	return out
}

func (v *view) pathOf(seg, row int) string {
	if b, ok := v.blobAt(seg, row); ok {
		return b.paths[0]
	}
	return ""
}

// pathMatchesQuery reports whether a query token names the file or its directory.
func pathMatchesQuery(p string, qt []string) bool {
	if len(qt) == 0 || p == "" {
		return false
	}
	pt := lexical.Tokens(strings.TrimSuffix(p, path.Ext(p)))
	set := map[string]bool{}
	for _, t := range pt {
		set[t] = true
	}
	for _, t := range qt {
		if len(t) > 2 && set[t] {
			return true
		}
	}
	return false
}

// isContainer reports whether a chunk kind holds other definitions.
func isContainer(kind string) bool {
	switch kind {
	case chunk.KindClass, chunk.KindStruct, chunk.KindInterface, chunk.KindTrait, chunk.KindImpl, chunk.KindModule, chunk.KindEnum:
		return true
	}
	return false
}

// isType reports whether a chunk kind declares a type or a constant
// rather than code that runs.
func isType(kind string) bool {
	switch kind {
	case chunk.KindClass, chunk.KindStruct, chunk.KindInterface, chunk.KindTrait, chunk.KindImpl, chunk.KindModule, chunk.KindEnum, chunk.KindType, chunk.KindConst:
		return true
	}
	return false
}

// rrfScores fuses arm rankings by weighted reciprocal rank; it ranks one
// arm alone (and the hybrid when convex is off).
func (f fusionConfig) rrfScores(arms []arm) (map[[2]int]float64, map[[2]int]float64) {
	scores := map[[2]int]float64{}
	boost := map[[2]int]float64{}
	rrfK := f.k
	if len(arms) == 1 {
		rrfK = f.singleK
	}
	for _, a := range arms {
		top := 0.0
		if len(a.cands) > 0 {
			top = a.cands[0].score
		}
		for rank, c := range a.cands {
			k := [2]int{c.seg, c.row}
			scores[k] += a.weight / (rrfK + float64(rank+1))
			if a.name == ModeText && rank == 0 && len(a.cands) > 1 && top > 0 && a.top.coverage >= f.coverageFloor {
				// A BM25 winner far ahead of the runner-up (the query's
				// words are in that chunk, e.g. in its doc comment) is
				// trusted beyond its rank.
				margin := (top - a.cands[1].score) / top
				scores[k] += f.textConfidence * margin
			}
			if a.name == ModeSymbol {
				exactBoost(boost, k, c.score)
			}
		}
	}
	return scores, boost
}

// exactBoost records the multiplier of a symbol-arm match whose name is the
// query: as typed (x3) or but for case and separators (x1.5), so ParseQuery
// beats parseQuery for "ParseQuery".
func exactBoost(boost map[[2]int]float64, k [2]int, score float64) {
	switch {
	case score >= symbolExactCase:
		boost[k] = 3
	case score >= symbolExact:
		boost[k] = 1.5
	}
}
