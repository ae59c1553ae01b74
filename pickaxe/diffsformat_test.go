package pickaxe

import (
	"context"
	"encoding/binary"
	"os"
	"testing"

	"github.com/bcindex/bcindex/internal/checksum"
)

// rewriteDiffsV2 writes the diffs file beside the segment at segPath again
// in format 2: the same frames, format 2's filters, the magic "bcx2".
func rewriteDiffsV2(t *testing.T, segPath string) {
	t.Helper()
	d, err := openDiffs(segPath, -1)
	if err != nil {
		t.Fatal(err)
	}
	old, err := os.ReadFile(diffsPath(segPath))
	if err != nil {
		t.Fatal(err)
	}
	last := d.frames[len(d.frames)-1]
	buf := append([]byte(nil), old[:last.off+last.n]...)
	at := len(buf)
	buf = binary.AppendUvarint(buf, uint64(len(d.opts)))
	buf = append(buf, d.opts...)
	buf = binary.AppendUvarint(buf, uint64(len(d.index)))
	var fr frameReader
	defer fr.close()
	for i, e := range d.index {
		var f filterV2
		if e.frame > 0 && !e.binary {
			rec, ok, err := fr.record(d, i)
			if err != nil || !ok {
				t.Fatalf("record %d: %v", i, err)
			}
			f = newFilterV2(rec.trigrams(nil))
		}
		buf = binary.AppendUvarint(buf, uint64(e.frame))
		off := uint64(e.off) << 1
		if e.binary {
			off |= 1
		}
		buf = binary.AppendUvarint(buf, off)
		buf = binary.AppendUvarint(buf, uint64(len(f)))
		buf = append(buf, f...)
	}
	buf = binary.AppendUvarint(buf, uint64(len(d.frames)))
	for _, f := range d.frames {
		buf = binary.AppendUvarint(buf, uint64(f.n))
		buf = binary.LittleEndian.AppendUint32(buf, f.crc)
	}
	crc := checksum.Sum(buf[at:])
	buf = binary.LittleEndian.AppendUint64(buf, uint64(at))
	buf = binary.LittleEndian.AppendUint32(buf, crc)
	buf = append(buf, diffsMagicV2...)
	if err := os.WriteFile(diffsPath(segPath), buf, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestDiffsFormat2StillRead checks that a diffs file of format 2 is read
// with its own filters: the records answer as git log does, and they are
// read, not the blobs.
func TestDiffsFormat2StillRead(t *testing.T) {
	repo, tip, _ := openHistory(t, syntheticRepo(t), "HEAD")
	p := segmentPath(repo.IndexDir, tip.Hash)
	rewriteDiffsV2(t, p)
	hist, err := History(context.Background(), repo, tip.Hash, nil)
	if err != nil {
		t.Fatal(err)
	}
	if recorded(hist) != len(hist) || !hist[0].diffs.v2 {
		t.Fatalf("%d of %d commits have records of format 2", recorded(hist), len(hist))
	}
	records := 0
	for _, tc := range syntheticCases {
		againstGit(t, repo, hist, "HEAD", tc)
		_, st, err := Search(context.Background(), repo, hist, tc.opts)
		if err != nil {
			t.Fatal(err)
		}
		records += st.Records
	}
	if records == 0 {
		t.Error("no case read a record of format 2")
	}
}
