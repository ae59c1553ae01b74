package indexer

import (
	"fmt"
	"slices"

	"github.com/bcindex/bcindex/segment"
	"github.com/bcindex/bcindex/vector"
)

// A segment stores a vector only for a content that no other live segment
// stores: for the others, its locator names the parts of the segment that
// does (their owner) and where in them each content's vector is
// (segment.Locator's Slots). Versions of a file along a history repeat
// most functions across runs, so each function's vector is stored once in
// the index rather than once per segment. A part is deleted once no live
// segment's locator names it (storewrite's deleteParts).
//
// Every part that a segment which stays names is shared, whoever wrote
// it: it stays in Badger anyway. A merge thus stores only the vectors of
// the segments it merges that no segment which stays names, and the parts
// those segments wrote that no kept segment names go with them. A part of
// a dropped segment that a kept one still shares keeps the dropped
// segment's other vectors until storewrite's CompactParts rewrites it
// without them (compactvec.go).

// shareTable finds where the live segments store a content's vector of
// one vector file.
type shareTable struct {
	from  []string // the segments read, in manifest order
	parts []segment.PartLoc
	// at is each content's part (index into parts) and row in it.
	at shareIndex
}

type sharedAt struct{ part, row uint32 }

// sharing returns the table of the named vector file over the live
// segments: the one read last when they are those it read and maybe more
// (a run's segments are added to the manifest's end), the new ones added
// to it; else one read again.
func (ix *Indexer) sharing(name string, live []string) (*shareTable, error) {
	t := ix.shared[name]
	if t != nil && len(t.from) <= len(live) && slices.Equal(t.from, live[:len(t.from)]) {
		added := live[len(t.from):]
		t.from = slices.Clone(live)
		for _, id := range added {
			if err := t.add(ix.repo.IndexDir, id, name); err != nil {
				return nil, err
			}
		}
		return t, nil
	}
	t = &shareTable{from: slices.Clone(live)}
	for _, id := range live {
		if err := t.add(ix.repo.IndexDir, id, name); err != nil {
			return nil, err
		}
	}
	if ix.shared == nil {
		ix.shared = map[string]*shareTable{}
	}
	ix.shared[name] = t
	return t, nil
}

// add reads segment id's contents and where their vectors are; a segment
// without the file adds nothing, and one that cannot be read (damaged:
// the run drops it) neither.
func (t *shareTable) add(indexDir, id, name string) error {
	l, err := segment.ReadLocator(segment.File(indexDir, id, name))
	if err != nil {
		return nil
	}
	ct, err := segment.OpenTable(segment.File(indexDir, id, segment.ChunksFile))
	if err != nil {
		return nil
	}
	defer ct.Close()
	hashes := ct.StoredHashes()
	if len(hashes) != l.Rows {
		return nil
	}
	v, err := vector.OpenRegions(l.Regions(indexDir))
	if err != nil {
		return nil
	}
	defer v.Close()
	if v.Parts() != len(l.Parts) {
		return nil
	}
	// The parts' first stored rows, and each part's index in t.parts
	// (every part a segment read names is shared: it stays while named).
	bases := make([]int, len(l.Parts))
	index := make([]uint32, len(l.Parts))
	n := 0
	for i, p := range l.Parts {
		if v.PartLen(i) != p.Rows {
			return nil
		}
		bases[i] = (n + 63) &^ 63
		n = bases[i] + p.Rows
		k := slices.IndexFunc(t.parts, func(q segment.PartLoc) bool { return q.Owner == p.Owner && q.Part == p.Part })
		if k < 0 {
			k = len(t.parts)
			t.parts = append(t.parts, p)
		}
		index[i] = uint32(k)
	}
	var add []shareEntry
	for c, h := range hashes {
		if h == ([16]byte{}) || t.at.has(h) {
			continue
		}
		s := c
		if l.Slots != nil {
			s = int(l.Slots[c])
		}
		if !v.HasVector(s) {
			continue
		}
		i, _ := slices.BinarySearch(bases, s+1)
		i--
		if i < 0 || s-bases[i] >= l.Parts[i].Rows {
			return fmt.Errorf("segment %s: vector %d lies in no part", id, s)
		}
		hi, lo := entryKey(h)
		add = append(add, shareEntry{hi, lo, sharedAt{index[i], uint32(s - bases[i])}})
	}
	t.at = t.at.addAll(add)
	return nil
}

// share keeps of v, the vectors of a new segment's distinct contents
// (hashes), those that no part the table's segments name stores (they
// are live, and not dropped by the write), and returns them with
// the other segments' parts the segment shares and, when it shares any,
// each content's slot (segment.Locator). The new segment's own parts
// come first in its locator: its i-th own vector is stored vector i.
func (t *shareTable) share(v *segment.VectorRows, hashes [][16]byte) (*segment.VectorRows, []segment.PartLoc, []uint32) {
	own := &segment.VectorRows{Dim: v.Dim}
	ownOf := make([]int32, len(v.Q))    // the own vector's index, or -1
	refOf := make([]sharedAt, len(v.Q)) // with -1: the part (in shared) and row
	var shared []segment.PartLoc
	sharedIdx := map[uint32]uint32{}
	for i, q := range v.Q {
		at, ok := t.at.get(hashes[i])
		if ok && q != nil && hashes[i] != ([16]byte{}) {
			k, seen := sharedIdx[at.part]
			if !seen {
				k = uint32(len(shared))
				sharedIdx[at.part] = k
				shared = append(shared, t.parts[at.part])
			}
			ownOf[i], refOf[i] = -1, sharedAt{k, at.row}
			continue
		}
		ownOf[i] = int32(len(own.Q))
		own.Q = append(own.Q, q)
		own.Scales = append(own.Scales, v.Scales[i])
	}
	if len(shared) == 0 {
		return own, nil, nil
	}
	// The shared parts' first stored rows, after the own parts (full but
	// the last; none makes one empty part).
	bases := make([]uint32, len(shared))
	n := len(own.Q)
	for k, p := range shared {
		bases[k] = uint32((n + 63) &^ 63)
		n = int(bases[k]) + p.Rows
	}
	slots := make([]uint32, len(v.Q))
	for i := range slots {
		if ownOf[i] >= 0 {
			slots[i] = uint32(ownOf[i])
		} else {
			slots[i] = bases[refOf[i].part] + refOf[i].row
		}
	}
	return own, shared, slots
}

// sharedVectors are a vector file's parts of other segments that a new
// segment shares, and its slots.
type sharedVectors struct {
	parts []segment.PartLoc
	slots []uint32
}

// shareVectors keeps in vecs, each vector file's vectors of a new
// segment's distinct contents (hashes), those that no part the locators
// of owners (live segments that stay) name stores, and returns, by file,
// the parts it shares instead.
func (ix *Indexer) shareVectors(vecs map[string]*segment.VectorRows, hashes [][16]byte, owners []string) (map[string]sharedVectors, error) {
	out := map[string]sharedVectors{}
	for name, v := range vecs {
		if len(v.Q) != len(hashes) {
			return nil, fmt.Errorf("share vectors: %d vectors for %d contents", len(v.Q), len(hashes))
		}
		t, err := ix.sharing(name, owners)
		if err != nil {
			return nil, err
		}
		own, parts, slots := t.share(v, hashes)
		if err := currentPlaces(ix.repo.IndexDir, name, parts, owners); err != nil {
			return nil, err
		}
		vecs[name] = own
		if parts != nil {
			out[name] = sharedVectors{parts, slots}
		}
	}
	return out, nil
}

// attachShared adds the shared parts and slots to the encoded vectors.
func attachShared(enc map[string]*segment.EncodedVectors, shared map[string]sharedVectors) {
	for name, sv := range shared {
		if e := enc[name]; e != nil {
			e.Shared, e.Slots = sv.parts, sv.slots
		}
	}
}

// currentPlaces sets each part to where a locator that names it says it
// is now (its owner's, when the owner is live, else one of owners'): a
// rewrite of the value log since the table was read moved the parts it
// held, and pointed every live locator at the new places.
func currentPlaces(indexDir, name string, parts []segment.PartLoc, owners []string) error {
	read := map[string]*segment.Locator{}
	locator := func(id string) *segment.Locator {
		l, ok := read[id]
		if !ok {
			l, _ = segment.ReadLocator(segment.File(indexDir, id, name))
			read[id] = l
		}
		return l
	}
	for i, p := range parts {
		found := false
		for _, id := range namers(p.Owner, owners) {
			l := locator(id)
			if l == nil {
				continue
			}
			k := slices.IndexFunc(l.Parts, func(q segment.PartLoc) bool { return q.Owner == p.Owner && q.Part == p.Part })
			if k >= 0 && l.Parts[k].Rows == p.Rows && l.Parts[k].Len == p.Len {
				parts[i], found = l.Parts[k], true
				break
			}
		}
		if !found {
			return fmt.Errorf("share vectors: no live segment names part %d of segment %s", p.Part, p.Owner)
		}
	}
	return nil
}

// namers are the segments whose locators may name a part of owner: owner
// first when it is one of owners.
func namers(owner string, owners []string) []string {
	if !slices.Contains(owners, owner) {
		return owners
	}
	return append([]string{owner}, owners...)
}
