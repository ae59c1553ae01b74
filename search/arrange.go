package search

import (
	"path"
	"sort"
	"strings"

	"github.com/bcindex/bcindex/query"
)

// arrange is a ranking's last stage, after the arms are fused (and the
// hybrid's second stage has scored its pool): the priors of where answers
// rarely live (prior.go), a name looked up found in the file named after
// it, file-level evidence (the file's own BM25, filetext.go, and the sum
// of its chunks' scores, which lifts its best chunk), then one hit per
// definition (collapse) and distinct files at the top (a file's next
// chunk must outscore the other files' best by its decay). Each step is a
// setting of fusionConfig; at 0 (or a decay of 1) it does nothing.
func (v *view) arrange(q *query.Query, in []fused) []fused {
	f := &v.fusion
	if len(in) == 0 {
		return in
	}
	top := in[0].score
	for _, x := range in {
		top = max(top, x.score)
	}
	if top <= 0 {
		top = 1
	}
	name := "" // a name looked up: its squashed form
	if q.Shape == query.Identifier || q.Shape == query.Qualified {
		name = squash(q.Text)
	}
	fileText := f.fileText
	if name != "" {
		fileText = f.fileTextName
	}
	out := make([]fused, len(in))
	copy(out, in)
	if f.spelledBoost > 0 {
		out = v.boostSpelled(q, out, top)
	}
	var keywords pathWords
	shares := map[string]float64{} // by path
	if f.pathBoost > 0 {
		keywords = newPathWords(queryKeywords(q))
	}
	for i := range out {
		x := &out[i]
		p := v.pathOf(x.seg, x.row)
		row := v.snap.Segments[x.seg].Row(x.row)
		if len(keywords.words) > 0 {
			sh, ok := shares[p]
			if !ok {
				sh = pathShare(p, keywords)
				shares[p] = sh
			}
			if sh >= 0.1 {
				x.score += f.pathBoost * top * sh
			}
		}
		if f.priors {
			x.score *= pathPrior(p, row.Language, q)
		}
		if name != "" && f.nameFile > 1 && namesFile(name, row.Name, p, q) {
			x.score *= f.nameFile
		}
		if fileText > 0 && v.fileScore != nil {
			x.score += fileText * top * v.fileScoreOf([2]int{x.seg, v.rowBlobs().firstOf(x.seg, x.row)})
		}
	}
	if f.coherence > 0 {
		v.fileCoherence(out, top)
	}
	sort.SliceStable(out, func(i, j int) bool { return v.fusedBefore(out[i], out[j]) })
	out = v.collapse(out)
	decay := f.fileDecay
	if name != "" && f.nameDecay > 0 {
		decay = f.nameDecay
	}
	if decay > 0 && decay < 1 {
		out = v.distinctFiles(out, decay)
	}
	if f.fileCap > 0 {
		out = v.capFiles(out, f.fileCap, q)
	}
	return out
}

// capFiles moves the hits of a file beyond its first cap below the first
// hit of every other file among the first armDepth, keeping their order,
// unless the query names the file (namedFile). When one file holds every
// hit, its hits stay where they are. A moved hit's score is lowered to
// the one above it, so that scores still fall down the list.
func (v *view) capFiles(out []fused, limit int, q *query.Query) []fused {
	n := min(len(out), armDepth)
	count := map[string]int{}
	named := map[string]bool{}
	res := make([]fused, 0, len(out))
	var later []fused
	for _, x := range out[:n] {
		p := v.pathOf(x.seg, x.row)
		if _, ok := named[p]; !ok {
			named[p] = namedFile(p, q)
		}
		if count[p] >= limit && !named[p] {
			later = append(later, x)
			continue
		}
		count[p]++
		res = append(res, x)
	}
	for _, x := range later {
		if len(res) > 0 {
			x.score = min(x.score, res[len(res)-1].score)
		}
		res = append(res, x)
	}
	return append(res, out[n:]...)
}

// namedFile reports whether query q names the file at p: a word of the
// query is the file's name (processor.go), or its name without the
// extension, squashed (Processor, rate_limiter for ratelimiter.go).
func namedFile(p string, q *query.Query) bool {
	base := strings.ToLower(path.Base(p))
	stem := squash(strings.TrimSuffix(base, path.Ext(base)))
	if len(stem) < 3 {
		return false
	}
	for _, w := range q.Words {
		w = strings.Trim(strings.ToLower(w), "`'\",.:;()?")
		if w == base || squash(w) == stem {
			return true
		}
	}
	return false
}

// boostSpelled adds spelledBoost × top to the definitions of the code
// names a query in words spells, adding those no arm found.
func (v *view) boostSpelled(q *query.Query, out []fused, top float64) []fused {
	names := sentenceNames(q)
	if len(names) == 0 {
		return out
	}
	at := make(map[[2]int]int, len(out))
	for i, x := range out {
		at[[2]int{x.seg, x.row}] = i
	}
	for _, k := range v.nameDefinitions(names) {
		if i, ok := at[k]; ok {
			out[i].score += v.fusion.spelledBoost * top
			continue
		}
		at[k] = len(out)
		out = append(out, fused{seg: k[0], row: k[1], score: v.fusion.spelledBoost * top})
	}
	return out
}

// namesFile reports whether a row named rowName at path p is the
// definition a name lookup (name: the query squashed) most likely means:
// it bears the name (or the qualified query's last part) and its file is
// named after it (selector-parser.js for SelectorParser, request.ts for
// HonoRequest).
func namesFile(name, rowName, p string, q *query.Query) bool {
	rn := squash(rowName)
	if i := strings.LastIndexAny(rowName, ".:#"); i >= 0 && i < len(rowName)-1 {
		rn = squash(rowName[i+1:])
	}
	want := name
	if q.Last != "" {
		want = squash(q.Last)
	}
	if rn != want && rn != name {
		return false
	}
	base := path.Base(p)
	stem := squash(strings.TrimSuffix(base, path.Ext(base)))
	return stem == want || len(stem) >= 4 && strings.HasSuffix(want, stem)
}

// coherenceDepth is how many of the best candidates count towards a
// file's evidence.
const coherenceDepth = 50

// fileCoherence adds to each file's best chunk (among the best
// coherenceDepth) a share of top in proportion to the sum of the file's
// scores there, the best file's sum counting fully.
func (v *view) fileCoherence(out []fused, top float64) {
	n := min(len(out), coherenceDepth)
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return v.fusedBefore(out[order[a]], out[order[b]]) })
	sums := map[string]float64{}
	best := map[string]int{}
	maxSum := 0.0
	for _, i := range order {
		p := v.pathOf(out[i].seg, out[i].row)
		sums[p] += out[i].score
		if _, ok := best[p]; !ok {
			best[p] = i
		}
		maxSum = max(maxSum, sums[p])
	}
	if maxSum <= 0 {
		return
	}
	for p, i := range best {
		out[i].score += v.fusion.coherence * top * sums[p] / maxSum
	}
}

// distinctFiles reorders out so that a file's k-th hit competes with
// decay^(k-1) of its score: picked greedily, best effective score first,
// over the first armDepth hits; the rest keep their order.
func (v *view) distinctFiles(out []fused, decay float64) []fused {
	n := min(len(out), armDepth)
	paths := make([]string, n)
	for i := range n {
		paths[i] = v.pathOf(out[i].seg, out[i].row)
	}
	return decayFiles(out, paths, decay)
}

// decayFiles is distinctFiles over the paths of out's first hits.
func decayFiles(out []fused, paths []string, decay float64) []fused {
	n := len(paths)
	taken := make([]bool, n)
	count := map[string]int{}
	res := make([]fused, 0, len(out))
	for len(res) < n {
		bi, bs := -1, 0.0
		for i := range n {
			if taken[i] {
				continue
			}
			s := out[i].score
			for range count[paths[i]] {
				s *= decay
			}
			if bi < 0 || s > bs {
				bi, bs = i, s
			}
			// out is sorted: no later hit can beat bs once its own score
			// is below it.
			if i+1 < n && out[i+1].score <= bs {
				break
			}
		}
		taken[bi] = true
		count[paths[bi]]++
		x := out[bi]
		x.score = bs
		res = append(res, x)
	}
	return append(res, out[n:]...)
}
