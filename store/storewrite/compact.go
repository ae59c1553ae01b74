package storewrite

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"fmt"
	"slices"

	"github.com/dgraph-io/badger/v4"

	"github.com/bcindex/bcindex/segment"
	"github.com/bcindex/bcindex/vector"
)

// A part stays in Badger while a live locator names it (deleteParts), and
// stays whole: when a merge or gc drops the segment that wrote it, the
// vectors that only the dropped segment used stay in it beside those a
// live segment shares. CompactParts rewrites such a part without them,
// under a new part number of the same owner, and points every live
// locator that names it at the new part, with slots renumbered; the old
// part, then named by no live locator, is deleted like a dropped
// segment's. Only a part of a segment no longer live can hold dead
// vectors: a live segment's own parts hold its contents' vectors, each
// of which its locator names.
//
// Each step leaves a store that answers the same: the new part is written
// and located before any locator names it (a killed compaction leaves it
// unnamed, and the next run's DeleteOrphanVectors deletes it); each
// locator is replaced whole, naming the old part or the new one, both in
// Badger until the old one is named by none; and readers that mapped the
// old part keep its bytes until a rewrite of the log removes its file
// (then they read the locator again, as after any rewrite).

// compactShare is the share of a part's rows that must be dead for
// CompactParts to rewrite it: a part barely dead is not copied for the
// little it gives back.
const compactShare = 1.0 / 16

// writeLocator writes a repointed locator; a test fails it to leave a
// compaction where a killed one stops.
var writeLocator = segment.WriteLocator

// CompactStats counts what a compaction did.
type CompactStats struct {
	Parts    int // parts rewritten without their dead vectors
	Dropped  int // dead vectors they held
	Locators int // locators pointed at the rewritten parts
}

// partRef is a part's key: owner segment and part number.
type partRef struct {
	owner string
	part  int
}

// partUse is which rows of a part the live locators name.
type partUse struct {
	loc  segment.PartLoc
	used []uint64 // a bit per row
	n    int      // rows used
}

// movedPart is a part rewritten: where its vectors are now, and each old
// row's new row (-1: dropped).
type movedPart struct {
	loc   segment.PartLoc
	remap []int32
}

// DeadVectors is how many vectors the parts that the live segments ids
// name hold that none of their locators uses, and how many bytes those
// take, over every vector file: what CompactParts gives back, at most.
// It reads the locators only.
func DeadVectors(indexDir string, ids []string) (rows int, n int64) {
	for _, name := range vectorNames(indexDir, ids) {
		locs, ok := readLocators(indexDir, ids, name)
		if !ok {
			continue
		}
		uses, ok := partUses(locs)
		if !ok {
			continue
		}
		for _, u := range uses {
			if dead := u.loc.Rows - u.n; dead > 0 {
				rows += dead
				n += int64(dead) * u.loc.Len / int64(max(1, u.loc.Rows))
			}
		}
	}
	return rows, n
}

// CompactParts rewrites the parts that the locators of the live segments
// ids name, of segments no longer live, that hold at least compactShare
// dead vectors, without them, repoints the locators and deletes the old
// parts. A vector file of which a live locator cannot be read (a damaged
// segment, which the next run drops) is left as it is. One part is held
// in memory at a time, beside the locators of one vector file.
func (s *Store) CompactParts(indexDir string, ids []string) (CompactStats, error) {
	var sum CompactStats
	live := map[string]bool{}
	for _, id := range ids {
		live[id] = true
	}
	for _, name := range vectorNames(indexDir, ids) {
		if err := s.compactFile(indexDir, ids, live, name, &sum); err != nil {
			return sum, fmt.Errorf("compact vectors: %w", err)
		}
	}
	dropMappedPages(s.opts.Dir) // the parts were read through Badger's mappings
	if sum.Parts == 0 {
		return sum, nil
	}
	if _, err := s.DeleteOrphanVectors(ids); err != nil {
		return sum, fmt.Errorf("compact vectors: %w", err)
	}
	return sum, nil
}

// compactFile is CompactParts for one vector file.
func (s *Store) compactFile(indexDir string, ids []string, live map[string]bool, name string, sum *CompactStats) error {
	locs, ok := readLocators(indexDir, ids, name)
	if !ok {
		return nil
	}
	uses, ok := partUses(locs)
	if !ok {
		return nil
	}
	var todo []partRef
	for ref, u := range uses {
		dead := u.loc.Rows - u.n
		if !live[ref.owner] && dead > 0 && float64(dead) >= compactShare*float64(u.loc.Rows) {
			todo = append(todo, ref)
		}
	}
	if len(todo) == 0 {
		return nil
	}
	slices.SortFunc(todo, func(a, b partRef) int {
		if c := cmp.Compare(a.owner, b.owner); c != 0 {
			return c
		}
		return a.part - b.part
	})
	next := map[string]int{}
	moved := map[partRef]*movedPart{}
	for _, ref := range todo {
		if _, ok := next[ref.owner]; !ok {
			n, err := s.nextPart(ref.owner, name)
			if err != nil {
				return err
			}
			next[ref.owner] = n
		}
		num := next[ref.owner]
		if num >= 1<<16 {
			continue
		}
		next[ref.owner]++
		mp, err := s.rewritePart(name, ref, num, uses[ref], locs)
		if err != nil {
			return err
		}
		moved[ref] = mp
		sum.Parts++
		sum.Dropped += uses[ref].loc.Rows - uses[ref].n
	}
	for i, l := range locs {
		if l == nil || !slices.ContainsFunc(l.Parts, func(p segment.PartLoc) bool { return moved[partRef{p.Owner, p.Part}] != nil }) {
			continue
		}
		nl, err := repoint(l, moved)
		if err != nil {
			return fmt.Errorf("segment %s: %w", ids[i], err)
		}
		if err := writeLocator(segment.Dir(indexDir, ids[i]), name, nl); err != nil {
			return fmt.Errorf("segment %s: %w", ids[i], err)
		}
		sum.Locators++
	}
	return nil
}

// rewritePart writes the used rows of part ref as part num of the same
// owner and locates it.
func (s *Store) rewritePart(name string, ref partRef, num int, u *partUse, locs []*segment.Locator) (*movedPart, error) {
	mp := &movedPart{remap: make([]int32, u.loc.Rows)}
	keep := make([]int, 0, u.n)
	for r := range mp.remap {
		mp.remap[r] = -1
		if u.used[r>>6]&(1<<(uint(r)&63)) != 0 {
			mp.remap[r] = int32(len(keep))
			keep = append(keep, r)
		}
	}
	if len(keep) == 0 {
		return mp, nil // named, but no slot in it: left out of the locators
	}
	var old []byte
	err := s.DB.View(func(txn *badger.Txn) error {
		item, err := txn.Get(partKey(ref.owner, name, ref.part))
		if err != nil {
			return err
		}
		old, err = item.ValueCopy(nil)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("read part %d of segment %s: %w", ref.part, ref.owner, err)
	}
	part, err := vector.SelectRows(old, keep, MinPart)
	if err != nil {
		return nil, fmt.Errorf("part %d of segment %s: %w", ref.part, ref.owner, err)
	}
	dim := 0
	for _, l := range locs {
		if l != nil {
			dim = l.Dim
			break
		}
	}
	b := s.NewBatch()
	if err := b.PutVectorPart(ref.owner, name, num, part); err != nil {
		b.Cancel()
		return nil, err
	}
	if err := b.Flush(); err != nil {
		return nil, err
	}
	if err := s.DB.Sync(); err != nil {
		return nil, fmt.Errorf("sync index: %w", err)
	}
	at, err := s.locateKeys(ref.owner, name, []segment.PartLoc{{Owner: ref.owner, Part: num}},
		[][]byte{part}, []int64{vector.EncodedSize(dim, len(keep))})
	if err != nil {
		return nil, err
	}
	mp.loc = at[0]
	return mp, nil
}

// nextPart is the number after the highest of the owner's parts of the
// named vector file in Badger.
func (s *Store) nextPart(owner, name string) (int, error) {
	prefix := partKey(owner, name, 0)
	prefix = prefix[:len(prefix)-2]
	n := 0
	err := s.DB.View(func(txn *badger.Txn) error {
		it := txn.NewIterator(badger.IteratorOptions{Prefix: prefix, PrefetchValues: false})
		defer it.Close()
		for it.Rewind(); it.Valid(); it.Next() {
			k := it.Item().Key()
			if rest, ok := bytes.CutPrefix(k, prefix); ok && len(rest) == 2 {
				n = max(n, int(binary.BigEndian.Uint16(rest))+1)
			}
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("list parts of segment %s: %w", owner, err)
	}
	return n, nil
}

// CompactVectors opens the store (no other may be open; the caller holds
// the index lock) and compacts its parts (CompactParts) when those that
// the live segments ids name hold more than floor bytes of dead vectors
// (DeadVectors, read from the locators without opening the database).
func CompactVectors(indexDir string, ids []string, floor int64) (CompactStats, error) {
	if _, dead := DeadVectors(indexDir, ids); dead <= floor {
		return CompactStats{}, nil
	}
	st, err := OpenStore(indexDir)
	if err != nil {
		return CompactStats{}, err
	}
	sum, err := st.CompactParts(indexDir, ids)
	if cerr := st.Close(); err == nil {
		err = cerr
	}
	return sum, err
}
