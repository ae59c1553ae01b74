package cluster

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"time"

	"github.com/bcindex/bcindex/store"
	"github.com/bcindex/bcindex/store/storewrite"
)

// Summaries returns the generated summaries the chat model wrote under
// prompt version prompt that the local store holds (`git bcindex enhance`,
// or fetched), each marked generated. It waits up to lockWait for a
// running indexer.
func (l *Local) Summaries(ctx context.Context, model string, prompt int, lockWait time.Duration) ([]Summary, error) {
	var out []Summary
	err := storewrite.WithLocked(ctx, l.repo.IndexDir, lockWait, func(st *storewrite.Store) error {
		return st.Summaries(prompt, model, func(h [16]byte, v []byte) error {
			s := Summary{Hash: hex.EncodeToString(h[:])}
			if err := json.Unmarshal(v, &s.GeneratedSummary); err != nil {
				return fmt.Errorf("summary %x: %w: %v", h, store.ErrCorrupt, err)
			}
			s.Model, s.Prompt, s.Generated = model, prompt, true
			out = append(out, s)
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("read the summaries to publish: %w", err)
	}
	return out, nil
}
