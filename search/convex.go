package search

// Score-aware fusion (Bruch, Gai and Ingber, "An Analysis of Fusion
// Functions for Hybrid Retrieval", ACM TOIS 2023): a convex combination of
// the arms' scores, each normalised by its theoretical range rather than by
// its rank, so that how strongly a row matches survives fusion. A BM25
// score is divided by the most any row could score for the query (every
// term present at saturating frequency): a chunk whose doc comment holds
// the query's words lands near 1, a chunk sharing one common word near 0.
// A cosine is already bounded. Rank fusion (RRF) gives the top of each arm
// the same weight however weak it is, which is why it fell below BM25 alone
// when docs exist and below the vector arm when they do not.

// convexScores fuses the arms of a hybrid query: per row, the weighted sum
// of its normalised scores; a row missing from an arm's candidates scores
// that arm's last candidate (it ranks below it). It also returns each row's
// evidence, the unweighted sum of its normalised scores, which the no-hit
// floor applies to: unlike the fused score it does not depend on how the
// weights are set, so the floor holds its meaning when they are retuned.
func (f fusionConfig) convexScores(arms []arm) (scores, boost, evidence map[[2]int]float64) {
	scores = map[[2]int]float64{}
	evidence = map[[2]int]float64{}
	boost = map[[2]int]float64{}
	wt, wv, ws := f.convexWeights(arms)
	type armNorm struct {
		w, scale, floor float64
		a               arm
	}
	var ns []armNorm
	for _, a := range arms {
		if len(a.cands) == 0 {
			continue
		}
		n := armNorm{a: a, scale: 1}
		switch a.name {
		case ModeText:
			n.w = wt
			if a.top.coverage > 0 {
				n.scale = a.cands[0].score / a.top.coverage
			}
		case ModeVector:
			n.w = wv
			if f.vectorMinMax && len(a.cands) > 1 {
				// Cosines of a static model crowd into a narrow band: spread
				// the candidates' band over [0, 1].
				lo, hi := a.cands[len(a.cands)-1].score, a.cands[0].score
				if hi > lo {
					a = rescaled(a, lo, hi)
				}
			}
		case ModeSymbol:
			n.w, n.scale = ws, symbolExactCase
		}
		n.a = a
		n.floor = clamp01(a.cands[len(a.cands)-1].score / n.scale)
		ns = append(ns, n)
		for _, c := range a.cands {
			scores[[2]int{c.seg, c.row}] = 0
			if a.name == ModeSymbol {
				exactBoost(boost, [2]int{c.seg, c.row}, c.score)
			}
		}
	}
	for _, n := range ns {
		seen := make(map[[2]int]bool, len(n.a.cands))
		for _, c := range n.a.cands {
			k := [2]int{c.seg, c.row}
			seen[k] = true
			scores[k] += n.w * clamp01(c.score/n.scale)
			evidence[k] += clamp01(c.score / n.scale)
		}
		if n.a.name == ModeSymbol {
			continue // a name that does not match is no evidence against a row
		}
		for k := range scores {
			if !seen[k] {
				scores[k] += n.w * n.floor
				evidence[k] += n.floor
			}
		}
	}
	return scores, boost, evidence
}

func clamp01(x float64) float64 {
	if x < 0 {
		return 0
	}
	if x > 1 {
		return 1
	}
	return x
}

// convexWeights returns the text, vector and symbol weights for a query.
// With coverageRef set, the text arm's share shrinks when its top hit holds
// little of the query (coverage below coverageRef): its ranking then rests
// on a word or two, and the vector arm knows better. It does not shrink
// when that hit holds all the query's words (allTerms of their IDF): a
// long query matched word for word, as by a doc comment, scores a low
// coverage only because each word occurs once, and there BM25 knows better.
func (f fusionConfig) convexWeights(arms []arm) (float64, float64, float64) {
	wt := f.convexText
	if f.coverageRef > 0 {
		for _, a := range arms {
			if a.name == ModeText && a.top.terms < f.allTerms {
				wt *= clamp01(a.top.coverage / f.coverageRef)
			}
		}
	}
	return wt, 1 - wt, f.convexSymbol
}

// rescaled returns a copy of a with scores mapped from [lo, hi] to [0, 1].
func rescaled(a arm, lo, hi float64) arm {
	cs := make([]cand, len(a.cands))
	for i, c := range a.cands {
		c.score = (c.score - lo) / (hi - lo)
		cs[i] = c
	}
	a.cands = cs
	return a
}
