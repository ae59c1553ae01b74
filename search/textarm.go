package search

// candHeap keeps the best k candidates seen, in sortCands' order (higher
// score, then lower key, segment and row), in a min-heap whose root is the
// worst kept.
type candHeap struct {
	k int
	h []cand
}

// candWorse reports whether a ranks below b in sortCands' order.
func candWorse(a, b cand) bool {
	if a.score != b.score {
		return a.score < b.score
	}
	if a.key != b.key {
		return a.key > b.key
	}
	if a.seg != b.seg {
		return a.seg > b.seg
	}
	return a.row > b.row
}

// admits reports whether a candidate of this score may be kept: it spares
// computing the key of one that cannot.
func (t *candHeap) admits(score float64) bool {
	return len(t.h) < t.k || t.k > 0 && score >= t.h[0].score
}

func (t *candHeap) push(c cand) {
	h := t.h
	if len(h) < t.k {
		h = append(h, c)
		for i := len(h) - 1; i > 0; {
			p := (i - 1) / 2
			if !candWorse(h[i], h[p]) {
				break
			}
			h[i], h[p] = h[p], h[i]
			i = p
		}
		t.h = h
		return
	}
	if t.k == 0 || !candWorse(h[0], c) {
		return
	}
	h[0] = c
	for i := 0; ; {
		l := 2*i + 1
		if l >= len(h) {
			break
		}
		m := l
		if r := l + 1; r < len(h) && candWorse(h[r], h[l]) {
			m = r
		}
		if !candWorse(h[m], h[i]) {
			break
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
}

// sorted returns the kept candidates, best first.
func (t *candHeap) sorted() []cand {
	out := t.h
	sortCands(out)
	return out
}
