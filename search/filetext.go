package search

import "math"

// textStats is what the text arm computed for a query, kept for the
// file-level evidence: the visible rows with text and their mean length,
// the query's terms, and every row's BM25 score (not only the arm's
// best).
type textStats struct {
	rows   int
	avgdl  float64
	terms  []string
	scores map[[2]int]float64
}

// fileBM25 scores whole files against the query's terms, each file one
// document made of its chunks (a file whose several chunks hold the
// query's words is a better answer than one chunk that holds them all
// once), and keeps in v.fileScore each file's score over the most a file
// could score, and in v.fileBest its row of the best BM25 score. It does
// nothing when the text arm did not run, or once done.
func (v *view) fileBM25() {
	if v.text == nil || v.fileScore != nil {
		return
	}
	type file = [2]int // segment, first row of the blob
	terms := v.text.terms
	tf := map[file]map[string]float64{}
	for _, t := range terms {
		forms := []string{t}
		if v.fusion.stemWeight > 0 {
			forms = append(forms, wordForms(t)...)
		}
		for i, form := range forms {
			w := 1.0
			if i > 0 {
				w = v.fusion.stemWeight
			}
			for s, seg := range v.snap.Segments {
				allow := v.allow[s]
				it := seg.Lex.Postings(form)
				for it.Next() {
					if !allow.Test(uint(it.Row())) {
						continue
					}
					f := file{s, seg.BlobFirst(it.Row())}
					m := tf[f]
					if m == nil {
						m = map[string]float64{}
						tf[f] = m
					}
					m[t] += w * float64(it.Freq())
				}
			}
		}
	}
	files := max(1, len(v.added))
	avg := v.text.avgdl * float64(v.text.rows) / float64(files)
	df := map[string]float64{}
	for _, m := range tf {
		for t := range m {
			df[t]++
		}
	}
	best := 0.0
	idf := map[string]float64{}
	for _, t := range terms {
		idf[t] = math.Log(1 + (float64(files)-df[t]+0.5)/(df[t]+0.5))
		best += idf[t] * (bm25K1 + 1)
	}
	v.fileScore = make(map[file]float64, len(tf))
	v.fileBest = make(map[file]int, len(tf))
	bestScore := make(map[file]float64, len(tf))
	for k, sc := range v.text.scores {
		f := file{k[0], v.snap.Segments[k[0]].BlobFirst(k[1])}
		if r, ok := v.fileBest[f]; !ok || sc > bestScore[f] || sc == bestScore[f] && k[1] < r {
			v.fileBest[f], bestScore[f] = k[1], sc
		}
	}
	if best <= 0 {
		return
	}
	for f, m := range tf {
		b, _ := v.blobAt(f[0], f[1])

		seg := v.snap.Segments[f[0]]
		dl := 0.0
		for r := f[1]; r < f[1]+b.n; r++ {
			dl += float64(seg.Lex.DocLen(r))
		}
		norm := 1 - bm25B + bm25B*dl/avg
		sc := 0.0
		for _, t := range terms { // in the query's order: the same sum every time
			x, ok := m[t]
			if !ok {
				continue
			}
			x /= norm
			sc += idf[t] * x * (bm25K1 + 1) / (x + bm25K1)
		}
		v.fileScore[f] = sc / best
	}
}
