package enhance

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/store"
	"github.com/bcindex/bcindex/store/storewrite"
)

// embedBatch is how many summaries go to the embedder at once.
const embedBatch = 64

// Reindex writes the summary index search ranks with (store/sumindex.go)
// from the summaries model wrote under the current prompt version: their
// words, and with an embedder a vector of each one's text. Vectors the
// index already holds for the same text and embedder are kept, so a
// summary is embedded once; an index that already holds every summary is
// left as it is. It returns how many summaries the index holds.
func Reindex(ctx context.Context, st Store, model string, emb embed.Embedder) (int, error) {
	if _, err := os.Stat(filepath.Join(st.IndexDir, "db")); errors.Is(err, fs.ErrNotExist) {
		return 0, storewrite.RemoveSummaryIndex(st.IndexDir) // nothing indexed, nothing summarised
	}
	var recs []store.SummaryEntry
	err := st.with(ctx, func(s *storewrite.Store) error {
		return s.Summaries(PromptVersion, model, func(h [16]byte, v []byte) error {
			e := store.SummaryEntry{Hash: h}
			if err := json.Unmarshal(v, &e.Summary); err != nil {
				return fmt.Errorf("summary %x: %w: %v", h, store.ErrCorrupt, err)
			}
			e.Summary.Generated = true
			recs = append(recs, e)
			return nil
		})
	})
	if err != nil {
		return 0, fmt.Errorf("index summaries: %w", err)
	}
	h := store.SummaryIndexHeader{Model: model, Prompt: PromptVersion}
	if emb != nil {
		h.Embed, h.Dim = emb.ID(), emb.Dim()
	}
	old, err := store.OpenSummaryIndex(st.IndexDir)
	if err != nil && !errors.Is(err, store.ErrNoSummaryIndex) && !errors.Is(err, store.ErrCorrupt) {
		return 0, err
	}
	if old != nil && old.Header == h && old.Len() == len(recs) && holdsAll(old, recs) {
		return len(recs), nil
	}
	if len(recs) == 0 {
		return 0, storewrite.RemoveSummaryIndex(st.IndexDir)
	}
	if emb != nil {
		if err := embedSummaries(ctx, emb, old, recs); err != nil {
			return 0, err
		}
	}
	err = st.with(ctx, func(*storewrite.Store) error { return storewrite.WriteSummaryIndex(st.IndexDir, h, recs) })
	return len(recs), err
}

func holdsAll(x *store.SummaryIndex, recs []store.SummaryEntry) bool {
	for _, r := range recs {
		if _, ok := x.ByHash[r.Hash]; !ok {
			return false
		}
	}
	return true
}

// embedSummaries gives every entry its vector: the old index's for the same
// text by the same embedder, else a new one.
func embedSummaries(ctx context.Context, emb embed.Embedder, old *store.SummaryIndex, recs []store.SummaryEntry) error {
	var need []int
	for i, r := range recs {
		if old != nil && old.Header.Embed == emb.ID() && old.Header.Dim == emb.Dim() {
			if j, ok := old.ByHash[r.Hash]; ok {
				if g, err := old.Summary(j); err == nil && g.Text() == r.Summary.Text() {
					recs[i].Vector = old.Vector(j)
					continue
				}
			}
		}
		need = append(need, i)
	}
	for len(need) > 0 {
		n := min(len(need), embedBatch)
		texts := make([]string, n)
		for k, i := range need[:n] {
			texts[k] = recs[i].Summary.Text()
		}
		vecs, err := emb.Embed(ctx, texts, embed.RoleDocument)
		if err != nil {
			return fmt.Errorf("embed summaries: %w", err)
		}
		if len(vecs) != n {
			return fmt.Errorf("embed summaries: %d vectors for %d texts", len(vecs), n)
		}
		for k, i := range need[:n] {
			recs[i].Vector = vecs[k]
		}
		need = need[n:]
	}
	return nil
}
