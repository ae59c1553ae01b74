package storewrite

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/bcindex/bcindex/store"
)

func TestSummaryIndexRoundTrip(t *testing.T) {
	dir := t.TempDir()
	if _, err := store.OpenSummaryIndex(dir); !errors.Is(err, store.ErrNoSummaryIndex) {
		t.Fatalf("no index: got %v", err)
	}
	h := store.SummaryIndexHeader{Model: "m", Prompt: 1, Embed: "e", Dim: 2}
	in := []store.SummaryEntry{
		{Hash: [16]byte{9}, Summary: store.GeneratedSummary{Summary: "Retries uploads with backoff.", Keywords: []string{"retry", "backoff"}, Model: "m", Prompt: 1, Generated: true}, Vector: []float32{0.6, 0.8}},
		{Hash: [16]byte{1}, Summary: store.GeneratedSummary{Summary: "Parses the config file.", Purpose: "read config", Model: "m", Prompt: 1, Generated: true}, Vector: []float32{1, 0}},
	}
	if err := WriteSummaryIndex(dir, h, in); err != nil {
		t.Fatal(err)
	}
	x, err := store.OpenSummaryIndex(dir)
	if err != nil {
		t.Fatal(err)
	}
	if x.Header != h || x.Len() != 2 {
		t.Fatalf("header %+v, %d entries", x.Header, x.Len())
	}
	i, ok := x.ByHash[[16]byte{9}]
	g, err := x.Summary(i)
	if !ok || err != nil || g.Keywords[1] != "backoff" || x.Vector(i)[1] != 0.8 || !g.Generated {
		t.Fatalf("entry %d: %+v %v", i, g, err)
	}
	if d := x.Dot(i, []float32{1, 1}); d < 1.399 || d > 1.401 {
		t.Errorf("dot = %v, want 1.4", d)
	}
	if ps := x.Postings("nowhere"); ps != nil {
		t.Errorf("postings of a missing term: %+v", ps)
	}
	ps := x.Postings("backoff")
	if len(ps) != 1 || ps[0].Entry != i || ps[0].Freq != 2 {
		t.Errorf("postings of backoff: %+v", ps)
	}
	if ps := x.Postings("config"); len(ps) != 1 || ps[0].Entry != x.ByHash[[16]byte{1}] {
		t.Errorf("postings of config: %+v", ps)
	}
	if x.Lens[i] < 5 || x.AvgLen <= 0 {
		t.Errorf("lengths %v, average %v", x.Lens, x.AvgLen)
	}

	// Any byte flipped is caught by the checksum.
	p := filepath.Join(dir, store.SummaryIndexFile)
	b, _ := os.ReadFile(p)
	for _, at := range []int{3, len(b) / 2, len(b) - 9} {
		bad := append([]byte(nil), b...)
		bad[at] ^= 0x10
		os.WriteFile(p, bad, 0o644)
		if _, err := store.OpenSummaryIndex(dir); !errors.Is(err, store.ErrCorrupt) {
			t.Errorf("byte %d flipped: got %v, want store.ErrCorrupt", at, err)
		}
	}
	os.WriteFile(p, b[:len(b)-7], 0o644)
	if _, err := store.OpenSummaryIndex(dir); !errors.Is(err, store.ErrCorrupt) {
		t.Errorf("cut short: got %v, want store.ErrCorrupt", err)
	}
	if err := RemoveSummaryIndex(dir); err != nil {
		t.Fatal(err)
	}
	if _, err := store.OpenSummaryIndex(dir); !errors.Is(err, store.ErrNoSummaryIndex) {
		t.Fatalf("removed: got %v", err)
	}
}

// check finds a damaged summary index and --repair removes it, for the
// next enhance run (or check --repair itself) to write anew.
func TestCheckFindsDamagedSummaryIndex(t *testing.T) {
	dir := t.TempDir()
	if err := WriteSummaryIndex(dir, store.SummaryIndexHeader{Model: "m", Prompt: 1}, []store.SummaryEntry{{Hash: [16]byte{1}, Summary: store.GeneratedSummary{Summary: "Parses the config file."}}}); err != nil {
		t.Fatal(err)
	}
	noListing := func(string) error { return nil }
	rep, err := Check(context.Background(), dir, noListing)
	if err != nil || len(rep.Damaged) != 0 || rep.Files != 1 {
		t.Fatalf("sound: %+v %v", rep, err)
	}
	p := filepath.Join(dir, store.SummaryIndexFile)
	b, _ := os.ReadFile(p)
	b[len(b)/2] ^= 2
	os.WriteFile(p, b, 0o644)
	rep, err = Check(context.Background(), dir, noListing)
	if err != nil || len(rep.Damaged) != 1 || rep.Damaged[0].Part != "summary index" {
		t.Fatalf("damaged: %+v %v", rep, err)
	}
	if err := Repair(context.Background(), dir, rep, 0); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(p); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the damaged summary index is still there: %v", err)
	}
}
