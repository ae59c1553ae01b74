package search

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
		if m := shipped(f.files.rerank); m != nil {
			f.rerank = m
		}
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
	// It is loaded when a search ranks files, not before.
	rerank func() (*rerankModel, error)
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
