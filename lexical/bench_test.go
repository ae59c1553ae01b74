package lexical

import (
	"sort"
	"strings"
	"testing"
)

func BenchmarkPostings(b *testing.B) {
	srcs := goSources(b)
	// Index net/http as 40-line chunks, as the chunker's windows would.
	w := NewWriter()
	row := 0
	for _, src := range srcs {
		lines := strings.SplitAfter(string(src), "\n")
		for i := 0; i < len(lines); i += 40 {
			w.Add(row, Tokens(strings.Join(lines[i:min(i+40, len(lines))], "")))
			row++
		}
	}
	ix := writeAndOpen(b, w)
	// Query terms of every frequency: the most common ones plus a sample.
	type tf struct {
		term string
		df   int
	}
	var all []tf
	for c := ix.cursor(0); c.next(); {
		all = append(all, tf{string(c.term), c.df})
	}
	sort.Slice(all, func(i, j int) bool { return all[i].df > all[j].df })
	var queries []string
	for i, t := range all {
		if i < 20 || i%50 == 0 {
			queries = append(queries, t.term)
		}
	}
	queries = append(queries, "nosuchterm", "zzzz")
	postingsPerOp := 0
	for _, q := range queries {
		postingsPerOp += ix.Postings(q).Len()
	}
	b.Logf("%d rows, %d terms, %d queries, %d postings per op", ix.Rows(), ix.Terms(), len(queries), postingsPerOp)

	b.Run("Postings", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, q := range queries {
				p := ix.Postings(q)
				for p.Next() {
					_ = p.Row() + p.Freq()
				}
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*postingsPerOp), "ns/posting")
	})
	b.Run("Iter", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, q := range queries {
				it := ix.Iter(q)
				for it.Next() {
					_ = it.Row() + it.Freq()
				}
			}
		}
	})
	b.Run("Next", func(b *testing.B) {
		// Decoding alone: the lookups are done once, outside the loop.
		its := make([]Iterator, len(queries))
		for i, q := range queries {
			its[i] = ix.Iter(q)
		}
		b.ReportAllocs()
		for b.Loop() {
			for i := range its {
				it := its[i]
				for it.Next() {
					_ = it.Row() + it.Freq()
				}
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*postingsPerOp), "ns/posting")
	})
	b.Run("BM25", func(b *testing.B) {
		// Per-posting work of a scorer: the doc length and BM25's term.
		avgdl := float64(ix.TotalLen()) / float64(ix.Rows())
		sum := 0.0
		b.ReportAllocs()
		for b.Loop() {
			for _, q := range queries {
				it := ix.Iter(q)
				for it.Next() {
					tf, dl := float64(it.Freq()), float64(ix.DocLen(it.Row()))
					sum += tf * 2.2 / (tf + 1.2*(0.25+0.75*dl/avgdl))
				}
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*postingsPerOp), "ns/posting")
		_ = sum
	})
	b.Run("Lookup", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, q := range queries {
				ix.Iter(q)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(queries)), "ns/lookup")
	})
}

// BenchmarkWriterAdd indexes net/http as 40-line chunks, as a run's writer
// adds the rows of the blobs it processed, into a term table that grows as
// it goes and into one sized for the terms first.
func BenchmarkWriterAdd(b *testing.B) {
	srcs := goSources(b)
	var rows [][]string
	for _, src := range srcs {
		lines := strings.SplitAfter(string(src), "\n")
		for i := 0; i < len(lines); i += 40 {
			rows = append(rows, Tokens(strings.Join(lines[i:min(i+40, len(lines))], "")))
		}
	}
	terms := map[string]bool{}
	for _, toks := range rows {
		for _, t := range toks {
			terms[t] = true
		}
	}
	for _, sized := range []bool{false, true} {
		b.Run(map[bool]string{false: "grown", true: "sized"}[sized], func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				w := NewWriter()
				if sized {
					w = NewWriterSize(len(terms))
				}
				for i, toks := range rows {
					w.Add(i, toks)
				}
			}
		})
	}
}
