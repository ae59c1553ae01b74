package query

import (
	"sort"

	"github.com/bcindex/bcindex/lexical"
)

// Marks returns the byte ranges of text to highlight for the query: the
// places of its tokens, found with the index's tokenizer, so that
// "backoff" marks the Backoff of retryWithBackoff. Overlapping ranges (a
// whole identifier and its parts) are merged; the ranges are in order.
// The command line paints them and the web page wraps them in <mark>.
func (q *Query) Marks(text string) [][2]int {
	if len(q.terms) == 0 {
		return nil
	}
	var hits []lexical.Span
	for _, s := range lexical.Spans(text) {
		if q.terms[s.Token] {
			hits = append(hits, s)
		}
	}
	// An identifier's whole span follows its parts: order by start to merge.
	sort.Slice(hits, func(i, j int) bool { return hits[i].Start < hits[j].Start })
	var out [][2]int
	for i := 0; i < len(hits); {
		start, end := hits[i].Start, hits[i].End
		for i++; i < len(hits) && hits[i].Start <= end; i++ {
			end = max(end, hits[i].End)
		}
		out = append(out, [2]int{start, end})
	}
	return out
}

// FirstMark returns the byte offset of the first query token in text, or
// -1: where an editor's cursor goes for a listed line (--vimgrep).
func (q *Query) FirstMark(text string) int {
	for _, s := range lexical.Spans(text) {
		if q.terms[s.Token] {
			return s.Start
		}
	}
	return -1
}
