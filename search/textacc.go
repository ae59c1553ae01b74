package search

import (
	"math/bits"
	"sync"
)

// textAcc adds up the text arm's sums in arrays indexed by row, one set
// per segment: a term's frequency in each row (tf, summed over its forms,
// path field and summary in that order), then each row's BM25 score and
// the IDF of the terms it holds (summed in the query's order). Every row
// thus gets its terms added in the order the lists merged them, so every
// sum is the same number; no list is merged, and no hash map entry is
// made per posting. The arrays are zero between queries: a query clears
// the rows it touched.
type textAcc struct {
	tf, score, held [][]float64
	// term and any mark the rows the current term touched and those any
	// term did, a bit a row.
	term, any [][]uint64
}

var textAccs sync.Pool

// getTextAcc returns zeroed arrays for rows[s] rows of each segment s.
func getTextAcc(rows []int) *textAcc {
	a, _ := textAccs.Get().(*textAcc)
	if a == nil {
		a = &textAcc{}
	}
	n := len(rows)
	a.tf, a.score, a.held = fitSegs(a.tf, n), fitSegs(a.score, n), fitSegs(a.held, n)
	a.term, a.any = fitSegs(a.term, n), fitSegs(a.any, n)
	for s, r := range rows {
		a.tf[s], a.score[s], a.held[s] = zeroed(a.tf[s], r), zeroed(a.score[s], r), zeroed(a.held[s], r)
		a.term[s], a.any[s] = zeroed(a.term[s], (r+63)/64), zeroed(a.any[s], (r+63)/64)
	}
	return a
}

// fitSegs returns x with n elements, keeping those it has.
func fitSegs[T any](x [][]T, n int) [][]T {
	if cap(x) >= n {
		return x[:n]
	}
	return append(x[:cap(x)], make([][]T, n-cap(x))...)
}

// zeroed returns x with n zero elements: x's own when it has room (its
// elements are zero: users clear what they set), a new slice otherwise.
func zeroed[T any](x []T, n int) []T {
	if cap(x) >= n {
		return x[:n]
	}
	return make([]T, n)
}

// put clears the any marks (the other arrays are clear by then) and
// keeps the arrays for the next query.
func (a *textAcc) put() {
	for s := range a.any {
		clear(a.any[s])
	}
	textAccs.Put(a)
}

// add adds x to row r of segment s's term frequency.
func (a *textAcc) add(s, r int32, x float64) {
	a.tf[s][r] += x
	a.term[s][r>>6] |= 1 << (uint(r) & 63)
}

// addRows adds each entry's tf to its row.
func (a *textAcc) addRows(es []rowTF) {
	for _, e := range es {
		a.add(e.seg, e.row, e.tf)
	}
}

// endTerm adds the term of IDF idf to the score of each row it touched,
// after the terms before it, clears its frequencies, and returns its
// document frequency: the rows it touched.
func (a *textAcc) endTerm(idf float64) int {
	df := 0
	for s, words := range a.term {
		tf, score, held, any := a.tf[s], a.score[s], a.held[s], a.any[s]
		for w, word := range words {
			if word == 0 {
				continue
			}
			any[w] |= word
			words[w] = 0
			for ; word != 0; word &= word - 1 {
				r := w*64 + bits.TrailingZeros64(word)
				t := tf[r]
				score[r] += idf * t * (bm25K1 + 1) / (t + bm25K1)
				held[r] += idf
				tf[r] = 0
				df++
			}
		}
	}
	return df
}

// endFileTerm is endTerm for files, kept at their first rows: the
// term's share of a file's score is BM25 of its frequency over the
// file's length norm, norm(s, first), kept in held from the first term
// that touches the file.
func (a *textAcc) endFileTerm(idf float64, norm func(s, first int) float64) {
	for s, words := range a.term {
		tf, score, held, any := a.tf[s], a.score[s], a.held[s], a.any[s]
		for w, word := range words {
			if word == 0 {
				continue
			}
			words[w] = 0
			for ; word != 0; word &= word - 1 {
				bit := word & -word
				r := w*64 + bits.TrailingZeros64(word)
				if any[w]&bit == 0 {
					held[r] = norm(s, r)
					any[w] |= bit
				}
				x := tf[r] / held[r]
				score[r] += idf * x * (bm25K1 + 1) / (x + bm25K1)
				tf[r] = 0
			}
		}
	}
}

// termDF counts the rows the current term touched, without ending it.
func (a *textAcc) termDF() int { return countBits(a.term) }

// rows counts the rows any term touched.
func (a *textAcc) rows() int { return countBits(a.any) }

func countBits(segs [][]uint64) int {
	n := 0
	for _, words := range segs {
		for _, w := range words {
			n += bits.OnesCount64(w)
		}
	}
	return n
}

// each calls f for every row any term touched, in row order, with its
// score and held IDF, and clears them.
func (a *textAcc) each(f func(s, r int32, score, held float64)) {
	for s, words := range a.any {
		score, held := a.score[s], a.held[s]
		for w, word := range words {
			for ; word != 0; word &= word - 1 {
				r := w*64 + bits.TrailingZeros64(word)
				f(int32(s), int32(r), score[r], held[r])
				score[r], held[r] = 0, 0
			}
		}
	}
}
