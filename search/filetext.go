package search

import "math"

// fileBM25 scores whole files against the query's terms, each file one
// document made of its chunks (a file whose several chunks hold the
// query's words is a better answer than one chunk that holds them all
// once), and keeps in v.fileScore each file's score over the most a file
// could score. rowScores are the text arm's rows that hold a term; rows
// and avgRowLen, the visible rows with text and their mean length.
func (v *view) fileBM25(rowScores map[[2]int]float64, terms []string, rows int, avgRowLen float64) {
	type file = [2]int // segment, first row of the blob
	tf := map[file]map[string]float64{}
	for _, t := range terms {
		for s, seg := range v.snap.Segments {
			allow := v.allow[s]
			it := seg.Lex.Postings(t)
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
				m[t] += float64(it.Freq())
			}
		}
	}
	files := max(1, len(v.added))
	avg := avgRowLen * float64(rows) / float64(files)
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
		for t, x := range m {
			x /= norm
			sc += idf[t] * x * (bm25K1 + 1) / (x + bm25K1)
		}
		v.fileScore[f] = sc / best
	}
}
