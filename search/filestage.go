package search

// A ranking of files (Options.Files, search --files) groups the chunk
// ranking by file (files.go): files rank by the same scores as chunks, the
// file stage (arrange.go: priors, a file's BM25, the sum of its chunks'
// scores, the decay of its later chunks) being on for both.

// filesFirstStage sets what the files' learned second stage
// (rerank_files_model.json, off by default) was trained on: the best
// files' chunks in the pool and every row's BM25 as a feature.
func (f *fusionConfig) filesFirstStage() {
	f.poolFiles, f.textAll = 10, true
}

// chunksOnly turns off what ranks files and names for a query a person
// wrote (arrange.go's file stage, spelled names, the path field and the
// words' other forms): similar ranks chunks like a given chunk, wherever
// they are.
func (f *fusionConfig) chunksOnly() {
	f.priors, f.coherence, f.fileDecay, f.fileText, f.fileTextName, f.nameFile = false, 0, 0, 0, 0, 0
	f.stemWeight, f.pathWeight = 0, 0
}

// fusionTweak, when set, changes the defaults of every query from here
// on: the tuning tools' sweeps over the dev suite (export_test.go).
var fusionTweak func(*fusionConfig)
