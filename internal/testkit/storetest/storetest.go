// Package storetest reads and writes a real store's records for tests.
package storetest

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/store"
	"github.com/bcindex/bcindex/store/storewrite"
)

// PutSummaries stores generated summaries as enhance does.
func PutSummaries(t testing.TB, r *gitindex.Repo, recs map[[16]byte]store.GeneratedSummary) {
	t.Helper()
	err := storewrite.WithLocked(context.Background(), r.IndexDir, 0, func(st *storewrite.Store) error {
		b := st.NewBatch()
		for h, g := range recs {
			v, _ := json.Marshal(g)
			if err := b.Put(storewrite.SummaryKey(h, g.Prompt, g.Model), v); err != nil {
				return err
			}
		}
		return b.Flush()
	})
	if err != nil {
		t.Fatal(err)
	}
}

// StoredSummaries reads back the summaries of one model and prompt.
func StoredSummaries(t testing.TB, r *gitindex.Repo, model string, prompt int) map[[16]byte]store.GeneratedSummary {
	t.Helper()
	out := map[[16]byte]store.GeneratedSummary{}
	err := storewrite.WithLocked(context.Background(), r.IndexDir, 0, func(st *storewrite.Store) error {
		return st.Summaries(prompt, model, func(h [16]byte, v []byte) error {
			var g store.GeneratedSummary
			err := json.Unmarshal(v, &g)
			out[h] = g
			return err
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
