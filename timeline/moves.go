package timeline

import (
	"github.com/go-git/go-git/v5/plumbing"

	"github.com/bcindex/bcindex/lexical"
)

// A chunk's timeline follows it when it moves to another file or is
// renamed: the commit's changed files are searched for the instance most
// like it (successor, predecessor), by the share of code tokens the two
// hold in common.

// Similarity a moved chunk must keep: with its name, a little (a function
// moved to another file and edited on the way); under a new name, most.
const (
	moveSimilarity   = 0.3
	renameSimilarity = 0.7
)

// successor finds where the chunk id, present in commit i-1 as cur, went in
// commit i: the same name and kind in a file commit i changed (moved), or a
// new name in the same file with nearly the same text (renamed).
func (h *history) successor(i int, id identity, cur *instance) (identity, *instance, bool) {
	return h.bestMatch(i, i-1, id, cur)
}

// predecessor finds the chunk that id, first present in commit i, was in
// commit i-1 before it moved or was renamed.
func (h *history) predecessor(i int, id identity) (identity, bool) {
	in := h.lookup(i, id)
	if in == nil {
		return identity{}, false
	}
	prev, _, ok := h.bestMatch(i-1, i, id, in)
	if !ok || h.lookup(i, prev) != nil {
		return identity{}, false // the other chunk lives on: a copy, not a move
	}
	return prev, true
}

// bestMatch looks in commit at, among the files that differ from commit
// other, for the chunk most like ref (id in commit other) that commit other
// does not have.
func (h *history) bestMatch(at, other int, id identity, ref *instance) (identity, *instance, bool) {
	var best identity
	var bestIn *instance
	bestSim := 0.0
	for _, e := range h.changedEntries(at, other) {
		loc, ok := h.snap.FindBlob(e.Blob)
		if !ok {
			continue
		}
		seg := h.snap.Segments[loc.Seg]
		for r := loc.First; r < loc.First+loc.N; r++ {
			name := seg.Name(r)
			if name == "" || (e.Path == id.path && name == id.name) {
				continue
			}
			row := seg.Row(r)
			if row.Kind != id.kind {
				continue
			}
			cand := identity{path: e.Path, name: name, kind: row.Kind}
			if h.lookup(other, cand) != nil {
				continue // existed before: not where id went
			}
			in := h.find(e.Blob, name, row.Kind)
			sim := h.similarity(ref, in)
			need := renameSimilarity
			if name == id.name {
				need = moveSimilarity
			}
			if sim >= need && sim > bestSim {
				best, bestIn, bestSim = cand, in, sim
			}
		}
	}
	return best, bestIn, bestIn != nil
}

// similarity is the Jaccard similarity of two chunks' token sets (1 for the
// same content), read back from the blobs.
func (h *history) similarity(a, b *instance) float64 {
	if a.hash == b.hash && a.hash != ([16]byte{}) {
		return 1
	}
	ta, tb := h.tokens(a), h.tokens(b)
	if len(ta) == 0 || len(tb) == 0 {
		return 0
	}
	inter := 0
	for t := range ta {
		if tb[t] {
			inter++
		}
	}
	return float64(inter) / float64(len(ta)+len(tb)-inter)
}

func (h *history) tokens(in *instance) map[string]bool {
	if h.texts == nil {
		h.texts = map[plumbing.Hash][]byte{}
	}
	content, ok := h.texts[in.blob]
	if !ok {
		content, _ = h.repo.ReadBlob(in.blob) // unreadable: no tokens, no match
		h.texts[in.blob] = content
	}
	if in.endByte > len(content) || in.startByte > in.endByte {
		return nil
	}
	set := map[string]bool{}
	for _, t := range lexical.Tokens(string(content[in.startByte:in.endByte])) {
		set[t] = true
	}
	return set
}
