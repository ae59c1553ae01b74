package vector

import "slices"

// topK keeps the best k hits seen so far in a min-heap whose root is the
// worst kept hit.
type topK struct {
	k int
	h []Hit
}

func newTopK(k int) *topK { return &topK{k: k, h: make([]Hit, 0, k)} }

// worse reports whether a ranks below b: lower score, or equal score and
// higher row.
func worse(a, b Hit) bool {
	return a.Score < b.Score || (a.Score == b.Score && a.Row > b.Row)
}

func (t *topK) push(x Hit) {
	if t.k == 0 {
		return
	}
	if len(t.h) < t.k {
		t.h = append(t.h, x)
		t.up(len(t.h) - 1)
		return
	}
	if !worse(t.h[0], x) {
		return
	}
	t.h[0] = x
	t.down(0)
}

func (t *topK) up(i int) {
	h := t.h
	for i > 0 {
		p := (i - 1) / 2
		if !worse(h[i], h[p]) {
			break
		}
		h[i], h[p] = h[p], h[i]
		i = p
	}
}

func (t *topK) down(i int) {
	h := t.h
	n := len(h)
	for {
		l := 2*i + 1
		if l >= n {
			return
		}
		m := l
		if r := l + 1; r < n && worse(h[r], h[l]) {
			m = r
		}
		if !worse(h[m], h[i]) {
			return
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
}

// sorted returns the kept hits, best first, at most k of them.
func (t *topK) sorted(k int) []Hit {
	h := t.h
	slices.SortFunc(h, func(a, b Hit) int {
		switch {
		case worse(b, a):
			return -1
		case worse(a, b):
			return 1
		}
		return 0
	})
	if len(h) > k {
		h = h[:k]
	}
	if len(h) == 0 {
		return nil
	}
	return h
}
