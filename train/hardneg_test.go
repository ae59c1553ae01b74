package train

import (
	"bytes"
	"context"
	"fmt"
	"testing"

	"github.com/bcindex/bcindex/embed"
)

func TestHardNegatives(t *testing.T) {
	pairs := []Pair{
		{Src: "a", Dir: "x", Query: "open the ledger file", Code: "func OpenLedger() { os.Open(ledgerFile) }"},
		{Src: "a", Dir: "x", Query: "close the ledger", Code: "func CloseLedger() { ledger.Close() }"},
		{Src: "a", Dir: "x", Query: "open a socket", Code: "func Dial() { net.Dial(addr) }"},
		{Src: "a", Dir: "y", Query: "open the ledger file twice", Code: "func OpenLedgerFile() { os.Open(ledgerFile) }"},
		{Src: "a", Dir: "z", Query: "alone", Code: "func Alone() {}"},
	}
	vocab := map[string]int32{}
	var qs, cs []sparse
	for _, p := range pairs {
		for _, tok := range append(embed.Tokens(p.Query), embed.Tokens(p.Code)...) {
			if _, ok := vocab[tok]; !ok {
				vocab[tok] = int32(len(vocab))
			}
		}
	}
	for _, p := range pairs {
		qs = append(qs, toSparse(embed.Tokens(p.Query), 512, vocab, len(vocab), 16))
		cs = append(cs, toSparse(embed.Tokens(p.Code), 512, vocab, len(vocab), 16))
	}
	idf := make([]float32, len(vocab)+16)
	for i := range idf {
		idf[i] = 1
	}
	neg := hardNegatives(pairs, qs, cs, idf)
	// The ledger opener's closest neighbour in its own directory is the
	// ledger closer; the identical code in directory y is not a candidate.
	if neg[0] != 1 {
		t.Errorf("hard negative of pair 0 = %d, want 1", neg[0])
	}
	if neg[3] != -1 || neg[4] != -1 {
		t.Errorf("pairs alone in their directory got negatives %d, %d", neg[3], neg[4])
	}
}

// Training is deterministic for a corpus and seed, with hard negatives too.
func TestTrainDeterministic(t *testing.T) {
	var pairs []Pair
	for i := 0; i < 96; i++ {
		pairs = append(pairs, Pair{
			Src: "p", Dir: fmt.Sprint(i % 3),
			Query: fmt.Sprintf("frobnicate widget %d with care", i%17),
			Code:  fmt.Sprintf("func Frob%d(w *Widget) error { return w.frob(%d, care) }", i, i%5),
		})
	}
	cfg := DefaultConfig()
	cfg.Dim, cfg.Vocab, cfg.MinDF, cfg.Batch, cfg.Buckets, cfg.Epochs = 16, 100, 1, 32, 8, 2
	cfg.HardNegatives = true
	a, err := Train(context.Background(), cfg, pairs, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Train(context.Background(), cfg, pairs, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a, b) {
		t.Fatal("two trainings of the same corpus differ")
	}
	cfg.HardNegatives = false
	c, err := Train(context.Background(), cfg, pairs, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(a, c) {
		t.Fatal("hard negatives changed nothing")
	}
	if _, err := embed.LoadStatic(a); err != nil {
		t.Fatal(err)
	}
}
