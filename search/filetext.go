package search

import (
	"math"
	"sort"
)

// fileBM25 scores whole files against the query's terms, each file one
// document made of its chunks (a file whose several chunks hold the
// query's words is a better answer than one chunk that holds them all
// once), and keeps in v.fileScore each file's score over the most a file
// could score. rows and avgRowLen are the visible rows with text and
// their mean length.
//
// A file's rows are consecutive, so a term's postings, in row order, meet
// each file once, in order: each term gives a list of files in (segment,
// first row) order, and the lists are merged as the text arm merges its
// rows'.
func (v *view) fileBM25(terms []string, rows int, avgRowLen float64) {
	lists := make([][]posting, len(terms)) // row: the file's first row; tf: the term's count in it
	for i, t := range terms {
		var l []posting
		for s, seg := range v.snap.Segments {
			allow := v.allow[s]
			it := seg.Lex.Iter(t)
			last := -2 // no row's file
			for it.Next() {
				r := it.Row()
				if !allow.Test(uint(r)) {
					continue
				}
				f := seg.BlobFirst(r)
				if f == last {
					l[len(l)-1].tf += float64(it.Freq())
					continue
				}
				last = f
				l = append(l, posting{int32(s), int32(f), float64(it.Freq())})
			}
		}
		lists[i] = l
	}
	files := max(1, len(v.added))
	avg := avgRowLen * float64(rows) / float64(files)
	best := 0.0
	idf := make([]float64, len(terms))
	for i, l := range lists {
		df := float64(len(l))
		idf[i] = math.Log(1 + (float64(files)-df+0.5)/(df+0.5))
		best += idf[i] * (bm25K1 + 1)
	}
	v.fileScore = &fileScores{}
	if best <= 0 {
		return
	}
	mergePostings(lists, func(s, first int, at []int) {
		b, _ := v.blobAt(s, first)
		seg := v.snap.Segments[s]
		dl := 0.0
		for r := first; r < first+b.n; r++ {
			dl += float64(seg.Lex.DocLen(r))
		}
		norm := 1 - bm25B + bm25B*dl/avg
		sc := 0.0
		for _, i := range at {
			x := lists[i][0].tf / norm
			sc += idf[i] * x * (bm25K1 + 1) / (x + bm25K1)
		}
		v.fileScore.keys = append(v.fileScore.keys, [2]int{s, first})
		v.fileScore.vals = append(v.fileScore.vals, sc/best)
	})
}

// fileScores holds fileBM25's scores of the files holding a query term,
// in (segment, first row) order.
type fileScores struct {
	keys [][2]int
	vals []float64
}

// of returns the score of the file whose first row is first in segment
// seg; 0 for a file that holds no query term.
func (f *fileScores) of(seg, first int) float64 {
	i := sort.Search(len(f.keys), func(i int) bool {
		k := f.keys[i]
		return k[0] > seg || k[0] == seg && k[1] >= first
	})
	if i < len(f.keys) && f.keys[i] == [2]int{seg, first} {
		return f.vals[i]
	}
	return 0
}
