package search

import (
	"sort"

	"github.com/bcindex/bcindex/query"
)

// Ranking candidates found outside a local index. The cluster (package
// cluster) holds the chunks of many repositories in Weaviate and asks it
// for the BM25 and the vector candidates of a query; it ranks them with
// FuseLists, which runs the rules local search ranks its rows by: the
// symbol arm's name scores, the same fusion (fuseScores), then of the last
// stage (arrange.go) what the candidates alone carry: the path priors, a
// name looked up in the file named after it, and the decay of a file's
// later hits. The stages that read a whole index (a file's own BM25, the
// second stage's pool) have nothing to read there.

// ArmList is one arm's candidates, best first: Keys index the caller's
// candidates, Scores are the arm's own (BM25 for ModeText, the cosine for
// ModeVector).
type ArmList struct {
	Mode   string
	Keys   []int
	Scores []float64
	// Coverage and Terms describe, for ModeText, its first candidate as
	// local search's text arm does (textTop): how much of the most the
	// query could score it scores, and the share of the query's terms it
	// holds.
	Coverage, Terms float64
}

// Candidate is what the ranking reads of one candidate.
type Candidate struct {
	Name, Kind, Path, Language string
}

// Scored is a candidate's key with its final score.
type Scored struct {
	Key   int
	Score float64
}

// FuseLists ranks cands from the text and vector arms' lists as local
// search ranks a hybrid query, the symbol arm scored over the candidates'
// names (a hybrid query without a model has no vector list). A
// candidate with too little evidence from every arm is left out, as local
// search leaves it out.
func FuseLists(q *query.Query, lists []ArmList, cands []Candidate) []Scored {
	f := defaultFusion()
	arms := []arm{{name: ModeSymbol, weight: f.weights[ModeSymbol], cands: symbolList(q, cands)}}
	for _, l := range lists {
		a := arm{name: l.Mode, weight: f.weights[l.Mode], top: textTop{coverage: l.Coverage, terms: l.Terms}}
		for i, k := range l.Keys {
			a.cands = append(a.cands, cand{row: k, score: l.Scores[i]})
		}
		sortCands(a.cands)
		arms = append(arms, a)
	}
	out := f.fuseScores(q, arms, true, func(k [2]int) rowInfo {
		c := cands[k[1]]
		return rowInfo{kind: c.Kind, path: c.Path, parent: -1}
	})
	name := ""
	if q.Shape == query.Identifier || q.Shape == query.Qualified {
		name = squash(q.Text)
	}
	for i := range out {
		c := cands[out[i].row]
		if f.priors {
			out[i].score *= pathPrior(c.Path, c.Language, q)
		}
		if name != "" && f.nameFile > 1 && namesFile(name, c.Name, c.Path, q) {
			out[i].score *= f.nameFile
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].score > out[j].score })
	decay := f.fileDecay
	if name != "" && f.nameDecay > 0 {
		decay = f.nameDecay
	}
	if decay > 0 && decay < 1 {
		paths := make([]string, min(len(out), armDepth))
		for i := range paths {
			paths[i] = cands[out[i].row].Path
		}
		out = decayFiles(out, paths, decay)
	}
	res := make([]Scored, len(out))
	for i, x := range out {
		res[i] = Scored{Key: x.row, Score: x.score}
	}
	return res
}

// symbolList is the symbol arm over the candidates' names: the query as
// typed, or, when that names nothing exactly and the query is qualified,
// its last part (symbolArm).
func symbolList(q *query.Query, cands []Candidate) []cand {
	match := func(text string) []cand {
		var out []cand
		bq, nq := []byte(text), squash(text)
		for i, c := range cands {
			if s := nameScore([]byte(c.Name), bq, nq); s > 0 && c.Name != "" {
				out = append(out, cand{row: i, score: s})
			}
		}
		sortCands(out)
		return out
	}
	out := match(q.Text)
	if q.Last != "" && (len(out) == 0 || out[0].score < symbolExact) {
		out = match(q.Last)
	}
	return out
}
