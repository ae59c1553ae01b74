package search

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
	// rerank is the hybrid's learned second stage (rerank.go); nil, the
	// default: the rules' order stands. On the dev suite, which neither
	// model was trained on for chunks, the rules alone scored 0.790 and
	// with the chunks' model 0.785 (hybrid NDCG@10); for files the
	// files' model, trained on the dev suite itself, added 0.010 there
	// and 0.001 on semble's held-out set, so neither is on the default
	// path. collect, for the training tool and the
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
	// nameDecay replaces fileDecay for a name looked up (one identifier,
	// or a qualified one), whose first hit is its definition: a file's
	// other hits only push other files' definitions and uses down. On the
	// dev suite's symbol queries, chunk search NDCG@10 0.958 to 0.967.
	nameDecay float64
	// stemWeight is the weight of a query word's other forms in the text
	// arm (stems.go); 0: the word as written only. On the dev suite, 0.5
	// with the path field below lifted hybrid NDCG@10 from 0.765 to 0.787
	// (0.785 at 0.25, 0.786 at 1).
	stemWeight float64
	// pathWeight is the weight of a file's name (twice) and its last
	// directories as a field of each of its chunks in the text arm
	// (paths.go); 0: none. 1, 2 and 4 scored alike on the dev suite.
	pathWeight float64
	// poolFiles is how many of the best files by their own BM25
	// (filetext.go) bring their best chunk into the second stage's pool.
	poolFiles int
	// liftBlocks has a block chunk's score count for its enclosing
	// definition in the text and vector arms (units.go). On the dev suite
	// 0.787 to 0.785 (hybrid NDCG@10): the same, within one query's rank,
	// with one hit per function instead of its pieces.
	liftBlocks bool
	// windowChars, when above 0, has the text arm score flat windows of
	// about that many characters (windows.go) instead of chunks. On the
	// dev suite BM25 alone gained (0.608 to 0.640 at 1,500) but the
	// default search lost at 800, 1,500 and 2,500 (0.790 to 0.787, 0.783,
	// 0.778): 0, chunks.
	windowChars int
	// windowLines has a hit the text arm answered for a window show the
	// window's lines.
	windowLines bool
	// windowTop keeps the chunks' top row as what fusion weighs the text
	// arm by when it scores windows.
	windowTop bool
	// fileCap is how many hits of one file the ranking may hold before
	// every other file's hits have come (arrange.go, distinctFiles), unless
	// the query names the file; 0: no cap. With the decay of 0.5 the cap
	// of 2 (or 3) moved no dev-suite query's score: it bounds what the
	// decay already does.
	fileCap int
	// spelledBoost is the share of the best score added to a definition
	// of a code name a query in words spells (boosts.go); pathBoost the
	// share, times the share of the query's words the file's name and
	// directory hold. On the dev suite pathBoost 0.15, 0.3 and 1 gave
	// 0.789, 0.790 and 0.788 (from 0.788); spelledBoost 0.25, 0.5 and 1
	// gave 0.790, 0.787 and 0.786 (few of its queries spell a name) and
	// lowered the GOROOT suite's docs-stripped MRR@10 by 0.02 at 0.25, so
	// it is off.
	spelledBoost, pathBoost float64
	// textAll has the second stage's text feature read a row's BM25 when
	// the row is not among the text arm's candidates (0 otherwise).
	textAll bool
}

// defaultFusion returns the tuned ranking constants every query uses
// unless Options.ranking replaces them (the tuning tools' sweeps). A fresh
// value each call: no query can change another's weights map.
func defaultFusion() fusionConfig {
	f := tunedFusion()
	if fusionTweak != nil {
		fusionTweak(&f)
	}
	return f
}

// tunedFusion is defaultFusion before the tuning tools' fusionTweak.
func tunedFusion() fusionConfig {
	return fusionConfig{
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
		summaryText:    0.5,
		nameFile:       1.5,
		nameDecay:      0.5,
		priors:         true,
		coherence:      0.2,
		fileDecay:      0.5,
		fileText:       1.5,
		stemWeight:     0.5,
		pathWeight:     2,
		liftBlocks:     true,
		fileCap:        2,
		pathBoost:      0.3,
	}
}
