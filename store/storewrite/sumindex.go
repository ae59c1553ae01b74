package storewrite

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"sort"

	"github.com/bcindex/bcindex/internal/atomicfile"
	"github.com/bcindex/bcindex/internal/checksum"
	"github.com/bcindex/bcindex/lexical"
	"github.com/bcindex/bcindex/store"
)

// WriteSummaryIndex writes the entries (any order; vectors of h.Dim
// floats, or none when h.Dim is 0) as the index directory's summary index,
// atomically.
func WriteSummaryIndex(indexDir string, h store.SummaryIndexHeader, entries []store.SummaryEntry) error {
	es := append([]store.SummaryEntry(nil), entries...)
	sort.Slice(es, func(i, j int) bool { return bytes.Compare(es[i].Hash[:], es[j].Hash[:]) < 0 })
	hb, err := json.Marshal(h)
	if err != nil {
		return fmt.Errorf("write summary index: %w", err)
	}
	b := append([]byte(store.SummaryMagic), binary.AppendUvarint(nil, uint64(len(hb)))...)
	b = append(b, hb...)
	b = binary.AppendUvarint(b, uint64(len(es)))
	terms := map[string][]store.SummaryPosting{}
	for i, e := range es {
		if h.Dim > 0 && len(e.Vector) != h.Dim {
			return fmt.Errorf("write summary index: summary %x has a vector of %d floats, not %d", e.Hash, len(e.Vector), h.Dim)
		}
		toks := lexical.Tokens(e.Summary.Text())
		tf := map[string]int{}
		for _, t := range toks {
			tf[t]++
		}
		for t, n := range tf {
			terms[t] = append(terms[t], store.SummaryPosting{Entry: i, Freq: n})
		}
		rec, err := json.Marshal(e.Summary)
		if err != nil {
			return fmt.Errorf("write summary index: %w", err)
		}
		b = append(b, e.Hash[:]...)
		b = binary.AppendUvarint(b, uint64(len(toks)))
		b = binary.AppendUvarint(b, uint64(len(rec)))
		b = append(b, rec...)
	}
	names := make([]string, 0, len(terms))
	for t := range terms {
		names = append(names, t)
	}
	sort.Strings(names)
	b = binary.AppendUvarint(b, uint64(len(names)))
	for _, t := range names {
		ps := terms[t]
		sort.Slice(ps, func(i, j int) bool { return ps[i].Entry < ps[j].Entry })
		block := binary.AppendUvarint(nil, uint64(len(ps)))
		last := 0
		for _, p := range ps {
			block = binary.AppendUvarint(block, uint64(p.Entry-last))
			block = binary.AppendUvarint(block, uint64(p.Freq))
			last = p.Entry
		}
		b = binary.AppendUvarint(b, uint64(len(t)))
		b = append(b, t...)
		b = binary.AppendUvarint(b, uint64(len(block)))
		b = append(b, block...)
	}
	for _, e := range es {
		for _, x := range e.Vector[:h.Dim] {
			b = binary.LittleEndian.AppendUint32(b, math.Float32bits(x))
		}
	}
	b = binary.LittleEndian.AppendUint32(b, checksum.Sum(b))
	if err := atomicfile.Write(filepath.Join(indexDir, store.SummaryIndexFile), b); err != nil {
		return fmt.Errorf("write summary index: %w", err)
	}
	return nil
}

// RemoveSummaryIndex deletes the summary index, if there is one.
func RemoveSummaryIndex(indexDir string) error {
	err := os.Remove(filepath.Join(indexDir, store.SummaryIndexFile))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("remove summary index: %w", err)
	}
	return nil
}

// PruneSummaryIndex rewrites the summary index without the entries whose
// content hash keep rejects, keeping the others' records and vectors, and
// returns how many it dropped (0, and the file untouched, when none).
func PruneSummaryIndex(indexDir string, keep func(hash [16]byte) bool) (int, error) {
	x, err := store.OpenSummaryIndex(indexDir)
	if errors.Is(err, store.ErrNoSummaryIndex) {
		return 0, nil
	}
	if err != nil {
		// A damaged index is written anew by enhance or check --repair;
		// it is left to them rather than pruned from unreadable bytes.
		return 0, nil
	}
	var kept []store.SummaryEntry
	for i, h := range x.Hashes {
		if !keep(h) {
			continue
		}
		g, err := x.Summary(i)
		if err != nil {
			return 0, err
		}
		kept = append(kept, store.SummaryEntry{Hash: h, Summary: g, Vector: x.Vector(i)})
	}
	dropped := x.Len() - len(kept)
	if dropped == 0 {
		return 0, nil
	}
	if len(kept) == 0 {
		return dropped, RemoveSummaryIndex(indexDir)
	}
	return dropped, WriteSummaryIndex(indexDir, x.Header, kept)
}
