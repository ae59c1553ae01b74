package search

import (
	"math"
	"sort"
)

// textStats is what the text arm computed for a query, kept for the
// file-level evidence: the visible rows with text and their mean length,
// the query's terms, and every row's BM25 score (not only the arm's
// best), in row order.
type textStats struct {
	rows   int
	avgdl  float64
	terms  []string
	scores []rowScore
}

// rowScore is a row's BM25 score in the text arm.
type rowScore struct {
	seg, row int32
	score    float64
}

// score returns the BM25 score of row k (segment, row), 0 for a row that
// holds none of the query's terms.
func (t *textStats) score(k [2]int) float64 {
	seg, row := int32(k[0]), int32(k[1])
	i := sort.Search(len(t.scores), func(i int) bool {
		return !rowBefore(t.scores[i].seg, t.scores[i].row, seg, row)
	})
	if i < len(t.scores) && t.scores[i].seg == seg && t.scores[i].row == row {
		return t.scores[i].score
	}
	return 0
}

// fileScore is a file's whole-file BM25 over the most a file could score,
// the file named by its segment and first row.
type fileScore struct {
	seg, first int32
	score      float64
}

// fileRow is a file's row of the best BM25 score.
type fileRow struct {
	seg, first, row int32
}

// fileAtOrAfter reports whether file (seg, first) is not before f in
// file order, for sort.Search.
func fileAtOrAfter(seg, first int32, f [2]int) bool {
	return !rowBefore(seg, first, int32(f[0]), int32(f[1]))
}

// fileScoreOf returns file f's whole-file score (fileBM25), 0 for a file
// that holds none of the query's terms.
func (v *view) fileScoreOf(f [2]int) float64 {
	fs := v.fileScore
	i := sort.Search(len(fs), func(i int) bool { return fileAtOrAfter(fs[i].seg, fs[i].first, f) })
	if i < len(fs) && int(fs[i].seg) == f[0] && int(fs[i].first) == f[1] {
		return fs[i].score
	}
	return 0
}

// fileBestOf returns file f's row of the best BM25 score (fileBM25).
func (v *view) fileBestOf(f [2]int) (int, bool) {
	fb := v.fileBest
	i := sort.Search(len(fb), func(i int) bool { return fileAtOrAfter(fb[i].seg, fb[i].first, f) })
	if i < len(fb) && int(fb[i].seg) == f[0] && int(fb[i].first) == f[1] {
		return int(fb[i].row), true
	}
	return 0, false
}

// fileBM25 scores whole files against the query's terms, each file one
// document made of its chunks (a file whose several chunks hold the
// query's words is a better answer than one chunk that holds them all
// once), and keeps in v.fileScore each file's score over the most a file
// could score, and in v.fileBest its row of the best BM25 score, both in
// file order. It does nothing when the text arm did not run, or once
// done.
//
// A file's sums are kept at its first row in arrays indexed by row
// (textAcc): each term's frequency (its forms in order, row after row, as
// adding to a map would), then the file's score, terms in the query's
// order.
func (v *view) fileBM25() {
	if v.text == nil || v.fileScore != nil {
		return
	}
	type file = [2]int // segment, first row of the blob
	terms := v.text.terms
	files := max(1, len(v.added))
	avg := v.text.avgdl * float64(v.text.rows) / float64(files)
	rows := make([]int, len(v.snap.Segments))
	for s, seg := range v.snap.Segments {
		rows[s] = seg.Rows()
	}
	acc := getTextAcc(rows)
	defer acc.put()
	// The file's length norm, kept in acc.held.
	lens, rb := v.fileLens(), v.rowBlobs()
	norm := func(seg, first int) float64 {
		dl := 0.0
		if b := rb.of(seg, first); b >= 0 && v.slot[seg][b] > 0 {
			dl = lens[seg][b]
		}
		return 1 - bm25B + bm25B*dl/avg
	}
	best := 0.0
	nf := 0
	for _, t := range terms {
		forms := []string{t}
		if v.fusion.stemWeight > 0 {
			forms = append(forms, wordForms(t)...)
		}
		for j, form := range forms {
			w := 1.0
			if j > 0 {
				w = v.fusion.stemWeight
			}
			v.addFileTF(acc, form, w)
		}
		n := acc.termDF()
		df := float64(n)
		idf := math.Log(1 + (float64(files)-df+0.5)/(df+0.5))
		best += idf * (bm25K1 + 1)
		nf = max(nf, n)
		acc.endFileTerm(idf, norm)
	}
	v.fileScore = make([]fileScore, 0, acc.rows())
	v.fileBest = make([]fileRow, 0, nf)
	acc.each(func(seg, first int32, sc, _ float64) {
		if best > 0 {
			v.fileScore = append(v.fileScore, fileScore{seg, first, sc / best})
		}
	})
	// The rows are in order, and a file's rows follow each other: its
	// best row is the first of its best score.
	var cur file
	bestRow, bestScore, have := 0, 0.0, false
	for _, r := range v.text.scores {
		f := file{int(r.seg), rb.firstOf(int(r.seg), int(r.row))}
		if have && f == cur {
			if r.score > bestScore {
				bestRow, bestScore = int(r.row), r.score
			}
			continue
		}
		if have {
			v.fileBest = append(v.fileBest, fileRow{int32(cur[0]), int32(cur[1]), int32(bestRow)})
		}
		cur, bestRow, bestScore, have = f, int(r.row), r.score, true
	}
	if have {
		v.fileBest = append(v.fileBest, fileRow{int32(cur[0]), int32(cur[1]), int32(bestRow)})
	}
}

// addFileTF adds w times the frequency of form in each visible row to
// its file's term frequency in acc, at the file's first row, row after
// row.
func (v *view) addFileTF(acc *textAcc, form string, w float64) {
	rb := v.rowBlobs()
	var buf []rowFreq // reused unless the text arm read form's postings
	for s, seg := range v.snap.Segments {
		ps, ok := v.forms[form]
		if ok {
			buf = ps[s]
		} else {
			buf = v.formPostings(s, form, seg.Lex.Iter(form), buf)
		}
		for _, p := range buf {
			if first := rb.firstOf(s, int(p.row)); first >= 0 {
				acc.add(int32(s), int32(first), w*float64(p.freq))
			}
		}
	}
}

// fileLensKey keys a snapshot's fileLens in store.View.Memo.
type fileLensKey struct{}

// fileLens returns, for each segment's blobs, the sum of their rows'
// lengths: a file's length in the file-level BM25. They are the
// snapshot's, kept with the store's view when the query has one.
func (v *view) fileLens() [][]float64 {
	build := func() any {
		out := make([][]float64, len(v.snap.Segments))
		for s, seg := range v.snap.Segments {
			lens := make([]float64, seg.Blobs())
			for b := range lens {
				first, n := seg.Table.BlobRange(b)
				dl := 0.0
				for r := max(first, 0); r < min(first+n, seg.Rows()); r++ {
					dl += float64(seg.Lex.DocLen(r))
				}
				lens[b] = dl
			}
			out[s] = lens
		}
		return out
	}
	if v.memo != nil {
		return v.memo.Memo(fileLensKey{}, build).([][]float64)
	}
	return build().([][]float64)
}
