package store

import (
	"sort"

	"github.com/bcindex/bcindex/segment"
)

// ModelCoverage is how many of a revision's chunks have vectors of one
// model. Vector files are named after the model (segment.VectorFileName), so the
// name shown is that file's: the model ID with / \ : and spaces as _.
type ModelCoverage struct {
	Model   string `json:"model"`
	Vectors int    `json:"chunks_with_vectors"`
}

// VectorCoverage counts, per model with a vector file in any of the
// segments, the rows of rowsBySeg (segment ID → rows of the revision that
// can have a vector) in segments that have that model's vectors.
func VectorCoverage(indexDir string, rowsBySeg map[string]int) []ModelCoverage {
	by := map[string]int{}
	for id, n := range rowsBySeg {
		names, _ := segment.VectorFiles(indexDir, id)
		for _, name := range names {
			by[segment.VectorFileLabel(name)] += n
		}
	}
	out := make([]ModelCoverage, 0, len(by))
	for m, n := range by {
		out = append(out, ModelCoverage{Model: m, Vectors: n})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Model < out[j].Model })
	return out
}

// VectorRows is how many vectors (rows, of every model) the segments ids
// hold, by their locators: each part once, however many share it.
func VectorRows(indexDir string, ids []string) int {
	rows, _ := VectorBytes(indexDir, ids)
	return int(rows)
}
