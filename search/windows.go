package search

import (
	"math"

	"github.com/bcindex/bcindex/chunk/vocab"
)

// Flat windows: the text arm may score windows of about windowChars
// characters instead of chunks. A file's windows are made from its chunks'
// spans: a top-level definition that fits is kept whole, adjacent small
// ones are merged until the size is reached, a larger one is split at its
// children (its own text, then each child the same way). Block chunks and
// error windows repeat their parent's text and hold none of their own, so
// every indexed word of a file counts in exactly one window. A window's
// terms are its chunks' terms (their own text: a definition's children cut
// to their signature line), plus the file's path field once. A definition
// with no children longer than the size stays one window: its lines are
// not in the index.

// windowSet is the windows of the visible files: of each row, its window
// (-1 for none), and of each window its length in terms.
type windowSet struct {
	of    [][]int32 // segment, row: window
	len   []float64
	lines [][2]int // first and last line
}

// windows builds the windows of the visible files for size characters.
func (v *view) windows(size int) *windowSet {
	ws := &windowSet{of: make([][]int32, len(v.snap.Segments))}
	for s, seg := range v.snap.Segments {
		ws.of[s] = make([]int32, seg.Rows())
		for i := range ws.of[s] {
			ws.of[s][i] = -1
		}
	}
	for _, b := range v.added {
		v.blobWindows(ws, b, size)
	}
	return ws
}

// blobWindows adds one file's windows to ws.
func (v *view) blobWindows(ws *windowSet, b blobRef, size int) {
	seg := v.snap.Segments[b.seg]
	allow := v.allow[b.seg]
	if ws.of[b.seg][b.first] >= 0 {
		return // the blob under another path
	}
	rows := make([]rowSpan, b.n)
	kids := make([][]int, b.n)
	for i := range rows {
		r := seg.Row(b.first + i)
		rows[i] = rowSpan{start: r.StartByte, end: r.EndByte, kind: r.Kind, err: r.SyntaxError, parent: r.Parent - b.first,
			lo: r.StartLine, hi: r.EndLine}
		if r.Parent >= b.first && r.Kind != vocab.KindBlock {
			kids[r.Parent-b.first] = append(kids[r.Parent-b.first], i)
		}
	}
	content := func(i int) bool {
		r := rows[i]
		return r.kind != vocab.KindBlock && !(r.kind == vocab.KindWindow && r.err) &&
			allow.Test(uint(b.first+i)) && seg.Lex.DocLen(b.first+i) > 0
	}
	cur, curSize := int32(-1), 0
	put := func(members []int, n, lo, hi int) {
		if cur < 0 || curSize > 0 && curSize+n > size {
			cur = int32(len(ws.len))
			ws.len = append(ws.len, 0)
			ws.lines = append(ws.lines, [2]int{lo, hi})
			curSize = 0
		}
		curSize += n
		ws.lines[cur][0], ws.lines[cur][1] = min(ws.lines[cur][0], lo), max(ws.lines[cur][1], hi)
		for _, i := range members {
			ws.of[b.seg][b.first+i] = cur
			ws.len[cur] += float64(seg.Lex.DocLen(b.first + i))
		}
	}
	// subtree lists the content rows of row i's subtree (blocks included
	// in the walk, their rows not counted).
	var subtree func(i int, out []int) []int
	subtree = func(i int, out []int) []int {
		if content(i) {
			out = append(out, i)
		}
		for j := i + 1; j < len(rows) && rows[j].start < rows[i].end; j++ {
			if rows[j].parent == i && rows[j].kind != vocab.KindBlock {
				out = subtree(j, out)
			}
		}
		return out
	}
	var place func(i int)
	place = func(i int) {
		span := rows[i].end - rows[i].start
		if span <= size || len(kids[i]) == 0 {
			put(subtree(i, nil), span, rows[i].lo, rows[i].hi)
			return
		}
		own := span
		for _, k := range kids[i] {
			own -= rows[k].end - rows[k].start
		}
		if content(i) {
			// Its own text: the lines before its first child stand for it.
			put([]int{i}, max(0, own), rows[i].lo, max(rows[i].lo, rows[kids[i][0]].lo-1))
		}
		for _, k := range kids[i] {
			place(k)
		}
	}
	place(0)
}

type rowSpan struct {
	start, end, parent int
	lo, hi             int
	kind               string
	err                bool
}

// windowArm is the text arm over windows: BM25 of terms over the visible
// files' windows, each window answered by its row of the best chunk score
// (rowScores, the chunks' BM25).
func (v *view) windowArm(terms []string, rowScores map[[2]int]float64) ([]cand, textTop) {
	ws := v.windows(v.fusion.windowChars)
	n := len(ws.len)
	if n == 0 {
		return nil, textTop{}
	}
	total := 0.0
	for _, l := range ws.len {
		total += l
	}
	avgdl := total / float64(n)
	if avgdl <= 0 {
		return nil, textTop{}
	}
	scores := map[int32]float64{}
	held := map[int32]float64{}
	best, idfs := 0.0, 0.0
	var buf []rowFreq
	for _, t := range terms {
		tf := map[int32]float64{}
		forms := append([]string{t}, wordForms(t)...)
		for i, form := range forms {
			w := 1.0
			if i > 0 {
				w = v.fusion.stemWeight
				if w <= 0 {
					break
				}
			}
			for s, seg := range v.snap.Segments {
				of := ws.of[s]
				buf = v.formPostings(s, form, seg.Lex.Iter(form), buf)
				for _, p := range buf {
					if x := of[p.row]; x >= 0 {
						tf[x] += w * float64(p.freq)
					}
				}
			}
		}
		// The file's path field, once per window.
		if extra := v.pathTF(t, v.fusion.pathWeight); len(extra) > 0 {
			got := map[int32]float64{}
			for _, e := range extra {
				if w, x := ws.of[e.seg][e.row], e.tf; w >= 0 && x > got[w] {
					got[w] = x
				}
			}
			for w, x := range got {
				tf[w] += x * ws.len[w] / avgdl // undone by the normalisation below
			}
		}
		df := float64(len(tf))
		if df == 0 {
			continue
		}
		idf := math.Log(1 + (float64(n)-df+0.5)/(df+0.5))
		best += idf * (bm25K1 + 1)
		idfs += idf
		for w, f := range tf {
			f /= 1 - bm25B + bm25B*ws.len[w]/avgdl
			scores[w] += idf * f * (bm25K1 + 1) / (f + bm25K1)
			held[w] += idf
		}
	}
	// Each window answers as its row of the best chunk score.
	rep := make(map[int32][2]int, len(scores))
	for k, sc := range rowScores {
		w := ws.of[k[0]][k[1]]
		if w < 0 {
			continue
		}
		if r, ok := rep[w]; !ok || sc > rowScores[r] || sc == rowScores[r] && (k[0] < r[0] || k[0] == r[0] && k[1] < r[1]) {
			rep[w] = k
		}
	}
	kept := candHeap{k: armDepth}
	for w, sc := range scores {
		k, ok := rep[w]
		if !ok {
			continue
		}
		h := 0.0
		if idfs > 0 {
			h = held[w] / idfs
		}
		c := v.candOf(k[0], k[1], sc)
		c.held = h
		kept.push(c)
	}
	out := kept.sorted()
	if v.fusion.windowLines {
		v.winLines = make(map[[2]int][2]int, len(out))
		for _, c := range out {
			v.winLines[[2]int{c.seg, c.row}] = ws.lines[ws.of[c.seg][c.row]]
		}
	}
	var top textTop
	if len(out) > 0 && best > 0 {
		top.coverage = out[0].score / best
		top.terms = out[0].held
	}
	return out, top
}
