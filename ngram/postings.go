package ngram

import (
	"encoding/binary"
	"slices"
)

// Postings lists of the current version (BCGRAM05) are runs of
// consecutive documents: per run a uvarint of the gap before it (its
// first document minus the previous run's last, minus one; the first
// run's first document itself) shifted left by one, its low bit set when
// the run holds more than one document, and then a uvarint of the run's
// length minus two. Documents are numbered so that similar trigram sets
// are neighbours (docOrder), which makes most of a history's postings
// parts of long runs: the versions of a file share most of their
// trigrams. Lists of the earlier versions are a uvarint gap per
// document.

// appendRuns appends the postings of the ascending documents docs.
func appendRuns(dst []byte, docs []uint32) []byte {
	prev := int64(-1)
	for k := 0; k < len(docs); {
		j := k + 1
		for j < len(docs) && docs[j] == docs[j-1]+1 {
			j++
		}
		gap := uint64(int64(docs[k]) - prev - 1)
		if j-k == 1 {
			dst = binary.AppendUvarint(dst, gap<<1)
		} else {
			dst = binary.AppendUvarint(dst, gap<<1|1)
			dst = binary.AppendUvarint(dst, uint64(j-k-2))
		}
		prev = int64(docs[j-1])
		k = j
	}
	return dst
}

// decodeRuns appends the documents of postings b (appendRuns) to dst; ok
// is false when b is malformed or names a document of docs or more.
func decodeRuns(dst []uint32, b []byte, docs int) ([]uint32, bool) {
	next := uint64(0) // the least document the next run may start at
	for len(b) > 0 {
		v, n := binary.Uvarint(b)
		if n <= 0 {
			return dst, false
		}
		b = b[n:]
		run := uint64(1)
		if v&1 != 0 {
			r, n := binary.Uvarint(b)
			if n <= 0 {
				return dst, false
			}
			b = b[n:]
			run = r + 2
		}
		first := next + v>>1
		if v>>1 >= uint64(docs) || run > uint64(docs) || first+run > uint64(docs) {
			return dst, false
		}
		if run == 1 {
			dst = append(dst, uint32(first))
		} else {
			at := len(dst)
			dst = slices.Grow(dst, int(run))[:at+int(run)]
			for k := range dst[at:] {
				dst[at+k] = uint32(first) + uint32(k)
			}
		}
		next = first + run
	}
	return dst, true
}

// decodeGaps appends the documents of postings b of the earlier versions
// (a uvarint gap per document) to dst; ok as for decodeRuns.
func decodeGaps(dst []uint32, b []byte, docs int) ([]uint32, bool) {
	prev := int64(-1)
	for len(b) > 0 {
		v, n := binary.Uvarint(b)
		if n <= 0 || v > uint64(docs) {
			return dst, false
		}
		b = b[n:]
		d := prev + 1 + int64(v)
		if d >= int64(docs) {
			return dst, false
		}
		dst = append(dst, uint32(d))
		prev = d
	}
	return dst, true
}

// renumber returns list l's documents (the writer's gaps) renumbered by
// newDoc and sorted, in scratch's memory.
func (l *list) renumber(scratch []uint32, newDoc []uint32) []uint32 {
	scratch = scratch[:0]
	b := l.buf
	prev := int64(-1)
	for len(b) > 0 {
		v, n := binary.Uvarint(b)
		b = b[n:]
		prev += 1 + int64(v)
		scratch = append(scratch, newDoc[prev])
	}
	slices.Sort(scratch)
	return scratch
}
