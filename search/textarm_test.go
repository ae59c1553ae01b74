package search

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/internal/testkit/gittest"
)

// TestTextArmMatchesMaps checks the text arm's merged lists against the
// same BM25 summed through hash maps, one entry per posting: the best
// rows, every row's score and the file-level scores must be the same
// numbers, over two segments, a blob at two paths, word forms, path terms
// and generated summaries.
func TestTextArmMatchesMaps(t *testing.T) {
	repo := indexTwice(t, map[string]string{
		"net/retry.go":      gittest.RetryGo,
		"net/copy/retry.go": gittest.RetryGo,
		"p/p.go":            undocumented,
		// A word four directories up is not in the path field.
		"header/pkg/alpha/beta/gamma/retries.go": "package c\n\n// Parse reads a line.\nfunc Parse(s string) string { return s }\n",
		"parse/header.go":                        "package parse\n\n// ParseHeader parses a header line.\nfunc ParseHeader(b []byte) string { return string(b) }\n\n// parsing headers again\nfunc reparse(h string) string { return h + h }\n",
	}, map[string]string{
		"cfg/config.go": "package cfg\n\n// Load reads the configuration file, retrying a parse that failed.\nfunc Load(path string) error { return retried(path) }\n\nfunc retried(p string) error { return nil }\n",
		"cfg/retry.go":  "package cfg\n\n// Retries counts the retries of a header parse.\nvar Retries = 3\n",
		// Two rows of one file scoring the same: the file's best is the first.
		"cfg/tie.go": "package cfg\n\n// alpha retries the header parse with a backoff, then gives up on the header parse.\nfunc alpha(h string) error {\n\tfor i := 0; i < 3; i++ {\n\t\tif h != \"\" {\n\t\t\treturn nil\n\t\t}\n\t}\n\treturn nil\n}\n\n// gamma retries the header parse with a backoff, then gives up on the header parse.\nfunc gamma(h string) error {\n\tfor i := 0; i < 3; i++ {\n\t\tif h != \"\" {\n\t\t\treturn nil\n\t\t}\n\t}\n\treturn nil\n}\n",
	})
	writeSummaries(t, repo, map[string]string{
		"wq":   "Retries a flaky operation with a growing pause between tries.",
		"Load": "Reads the configuration and parses its header.",
	})
	rd := openDefaultView(t, repo)
	requireSegments(t, rd, 2)
	for _, q := range []string{"retry with backoff", "parsing the header", "header pkg beta retries", "retries", "configuration file retried", "operation pause", "nothing-matches-this"} {
		opts := Options{Query: q, Embedder: embed.Default()}
		if err := parseQuery(&opts); err != nil {
			t.Fatal(err)
		}
		got := viewOf(repo, rd.Want.Commits[0], rd, 1, &opts)
		got.loadSummaries(&opts, &Result{})
		if got.sums == nil {
			t.Fatal("no summaries loaded")
		}
		want := viewOf(repo, rd.Want.Commits[0], rd, 1, &opts)
		want.loadSummaries(&opts, &Result{})
		terms := opts.Parsed.Terms
		cands, top := got.textArm(terms)
		wantCands, wantTop, wantScores := want.textArmByMaps(terms)
		if q != "nothing-matches-this" && len(cands) == 0 {
			t.Errorf("%q: no rows", q)
		}
		if len(cands) != len(wantCands) || top != wantTop {
			t.Fatalf("%q: %d rows, top %+v; maps: %d rows, top %+v", q, len(cands), top, len(wantCands), wantTop)
		}
		for i := range cands {
			if cands[i] != wantCands[i] {
				t.Errorf("%q: row %d is %+v; maps: %+v", q, i, cands[i], wantCands[i])
			}
		}
		if got.text != nil {
			if len(got.text.scores) != len(wantScores) {
				t.Errorf("%q: %d rows scored; maps: %d", q, len(got.text.scores), len(wantScores))
			}
			for k, s := range wantScores {
				if g := got.text.score(k); g != s {
					t.Errorf("%q: row %v scores %v; maps: %v", q, k, g, s)
				}
			}
		}
		if !slices.IsSortedFunc(got.fileScore, func(a, b fileScore) int { return cmpFile(a.seg, a.first, b.seg, b.first) }) ||
			!slices.IsSortedFunc(got.fileBest, func(a, b fileRow) int { return cmpFile(a.seg, a.first, b.seg, b.first) }) {
			t.Errorf("%q: the files' scores or best rows are out of file order", q)
		}
		gotScore, gotBest := fileMaps(got)
		wantScore, wantBest := fileMaps(want)
		if len(gotScore) != len(wantScore) || len(gotBest) != len(wantBest) || len(gotScore) != len(got.fileScore) {
			t.Errorf("%q: %d files scored, %d best rows; maps: %d, %d", q, len(gotScore), len(gotBest), len(wantScore), len(wantBest))
		}
		for f, s := range wantScore {
			// The maps add a file's terms in a random order.
			if g := got.fileScoreOf(f); math.Abs(g-s) > 1e-12*s || g == 0 {
				t.Errorf("%q: file %v scores %v; maps: %v", q, f, g, s)
			}
		}
		for f, r := range wantBest {
			if g, ok := got.fileBestOf(f); !ok || g != r {
				t.Errorf("%q: file %v's best row is %v; maps: %v", q, f, g, r)
			}
		}
	}
}

// textArmByMaps is textArm and fileBM25 summing through hash maps: a map
// entry for every posting of every term, and a map of maps for the files.
func (v *view) textArmByMaps(terms []string) ([]cand, textTop, map[[2]int]float64) {
	if len(terms) == 0 {
		return nil, textTop{}, nil
	}
	var n int
	var totalLen int64
	for s, seg := range v.snap.Segments {
		k, l := seg.Lex.VisibleLens(v.allow[s].Words())
		n += k
		totalLen += l
	}
	if n == 0 {
		return nil, textTop{}, nil
	}
	avgdl := float64(totalLen) / float64(n)
	best, idfs := 0.0, 0.0
	scores := map[[2]int]float64{}
	held := map[[2]int]float64{}
	add := func(ps map[[2]int]float64, form string, w float64) {
		for s, seg := range v.snap.Segments {
			it := seg.Lex.Postings(form)
			for it.Next() {
				if v.allow[s].Test(uint(it.Row())) {
					dl := float64(seg.Lex.DocLen(it.Row()))
					ps[[2]int{s, it.Row()}] += w * float64(it.Freq()) / (1 - bm25B + bm25B*dl/avgdl)
				}
			}
		}
	}
	for _, t := range terms {
		ps := map[[2]int]float64{}
		add(ps, t, 1)
		if w := v.fusion.stemWeight; w > 0 {
			for _, form := range wordForms(t) {
				add(ps, form, w)
			}
		}
		for k, x := range v.pathTFByPath(t, v.fusion.pathWeight) {
			ps[k] += x
		}
		for _, e := range v.summaryTF(t, v.fusion.summaryText) {
			ps[[2]int{int(e.seg), int(e.row)}] += e.tf
		}
		df := float64(len(ps))
		idf := math.Log(1 + (float64(n)-df+0.5)/(df+0.5))
		best += idf * (bm25K1 + 1)
		idfs += idf
		for k, tf := range ps {
			scores[k] += idf * tf * (bm25K1 + 1) / (tf + bm25K1)
			held[k] += idf
		}
	}
	if v.fusion.fileText > 0 {
		v.fileBM25ByMaps(terms, n, avgdl, scores)
	}
	kept := candHeap{k: armDepth}
	for k, sc := range scores {
		c := v.candOf(k[0], k[1], sc)
		c.held = held[k] / idfs
		kept.push(c)
	}
	out := kept.sorted()
	var top textTop
	if len(out) > 0 && best > 0 {
		top.coverage = out[0].score / best
		top.terms = out[0].held
	}
	return out, top, scores
}

// fileBM25ByMaps is fileBM25 through a map of maps.
func (v *view) fileBM25ByMaps(terms []string, rows int, avgdl float64, scores map[[2]int]float64) {
	type file = [2]int
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
				it := seg.Lex.Postings(form)
				for it.Next() {
					if !v.allow[s].Test(uint(it.Row())) {
						continue
					}
					f := file{s, seg.BlobFirst(it.Row())}
					if tf[f] == nil {
						tf[f] = map[string]float64{}
					}
					tf[f][t] += w * float64(it.Freq())
				}
			}
		}
	}
	files := max(1, len(v.added))
	avg := avgdl * float64(rows) / float64(files)
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
	fileScore := map[file]float64{}
	fileBest := map[file]int{}
	defer func() { v.fileScore, v.fileBest = fileLists(fileScore, fileBest) }()
	bestScore := map[file]float64{}
	for k, sc := range scores {
		f := file{k[0], v.snap.Segments[k[0]].BlobFirst(k[1])}
		if r, ok := fileBest[f]; !ok || sc > bestScore[f] || sc == bestScore[f] && k[1] < r {
			fileBest[f], bestScore[f] = k[1], sc
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
		for t, x := range m {
			x /= norm
			sc += idf[t] * x * (bm25K1 + 1) / (x + bm25K1)
		}
		fileScore[f] = sc / best
	}
}

// fileLists is the view's file lists of maps by file.
func fileLists(score map[[2]int]float64, best map[[2]int]int) ([]fileScore, []fileRow) {
	fs := make([]fileScore, 0, len(score))
	for f, s := range score {
		fs = append(fs, fileScore{int32(f[0]), int32(f[1]), s})
	}
	slices.SortFunc(fs, func(a, b fileScore) int { return cmpFile(a.seg, a.first, b.seg, b.first) })
	fb := make([]fileRow, 0, len(best))
	for f, r := range best {
		fb = append(fb, fileRow{int32(f[0]), int32(f[1]), int32(r)})
	}
	slices.SortFunc(fb, func(a, b fileRow) int { return cmpFile(a.seg, a.first, b.seg, b.first) })
	return fs, fb
}

// fileMaps is the view's file lists as maps by file.
func fileMaps(v *view) (map[[2]int]float64, map[[2]int]int) {
	score, best := map[[2]int]float64{}, map[[2]int]int{}
	for _, s := range v.fileScore {
		score[[2]int{int(s.seg), int(s.first)}] = s.score
	}
	for _, b := range v.fileBest {
		best[[2]int{int(b.seg), int(b.first)}] = int(b.row)
	}
	return score, best
}

// cmpFile orders files by segment, then first row.
func cmpFile(s1, f1, s2, f2 int32) int {
	if s1 != s2 {
		return int(s1 - s2)
	}
	return int(f1 - f2)
}

// pathTFByPath is pathTF looking for the term's forms in each path on its
// own, lowercased whole, into a map.
func (v *view) pathTFByPath(t string, w float64) map[[2]int]float64 {
	if w <= 0 {
		return nil
	}
	forms := append([]string{t}, wordForms(t)...)
	out := map[[2]int]float64{}
	for _, b := range v.added {
		lower := lowerASCII(b.path)
		if !slices.ContainsFunc(forms, func(f string) bool { return strings.Contains(lower, f) }) {
			continue
		}
		n := 0
		for _, tok := range pathField(b.path) {
			if slices.Contains(forms, tok) {
				n++
			}
		}
		for r := b.first; n > 0 && r < b.first+b.n; r++ {
			if v.allow[b.seg].Test(uint(r)) && v.snap.Segments[b.seg].Lex.DocLen(r) > 0 {
				out[[2]int{b.seg, r}] += w * float64(n)
			}
		}
	}
	return out
}
