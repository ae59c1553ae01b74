package cluster

// Generated summaries (`git bcindex enhance`) in the cluster: a collection
// of their own, one object per (chat model, prompt version, chunk content
// hash). Not a property of the chunk objects: those are keyed by the
// embedder and sent only when the cluster lacks them, so a summary written
// after its chunk was published would never arrive, and clusters published
// before summaries existed keep their schema. Search attaches a hit's
// summary by its content hash, marked generated as local search shows it.

import (
	"context"
	"fmt"
	"strconv"

	"github.com/weaviate/weaviate-go-client/v5/weaviate/filters"
	"github.com/weaviate/weaviate/entities/models"

	"github.com/bcindex/bcindex/store"
)

// SummaryClass is the collection of generated summaries.
const SummaryClass = "BcindexSummary"

func summaryClass(repl *models.ReplicationConfig, shard map[string]any) *models.Class {
	return &models.Class{
		Class:             SummaryClass,
		Description:       description("one object per (chat model, prompt version, chunk content hash): a generated summary, never the author's doc"),
		Vectorizer:        "none",
		VectorIndexConfig: map[string]any{"skip": true},
		Properties: []*models.Property{
			prop("model", "text", models.PropertyTokenizationField, false, true),
			prop("prompt", "int", "", false, true),
			prop("hash", "text", models.PropertyTokenizationField, false, true),
			prop("summary", "text", models.PropertyTokenizationWord, false, false),
			prop("keywords", "text[]", models.PropertyTokenizationWord, false, false),
			prop("purpose", "text", models.PropertyTokenizationWord, false, false),
			prop("generated", "boolean", "", false, false),
		},
		ReplicationConfig: repl,
		ShardingConfig:    shard,
	}
}

// SummaryID is the UUID of the summary object of a content hash by a chat
// model under a prompt version.
func SummaryID(model string, prompt int, contentHash string) string {
	return nameID("summary", model, strconv.Itoa(prompt), contentHash)
}

// Summary is one chunk text's generated summary, as published.
type Summary struct {
	Hash string // content hash of the chunk text (hex), as the chunk objects name it
	store.GeneratedSummary
}

// SummaryReport reports a publication of summaries.
type SummaryReport struct {
	Model   string `json:"summary_model"`
	Prompt  int    `json:"summary_prompt"`
	Local   int    `json:"summaries"`         // summaries the local store has
	Sent    int    `json:"summaries_sent"`    // objects the cluster lacked
	Present int    `json:"summaries_present"` // objects it already had
}

// PublishSummaries sends the summaries the cluster lacks, batch objects a
// write (0: 200), every one marked generated. Summaries are keyed by
// content, not by repository or ref, so they are sent once for every
// repository that holds the text, and a second run sends nothing.
func PublishSummaries(ctx context.Context, c *Client, sums []Summary, batch int, progress Progress) (*SummaryReport, error) {
	rep := &SummaryReport{Local: len(sums)}
	if len(sums) == 0 {
		return rep, nil
	}
	rep.Model, rep.Prompt = sums[0].Model, sums[0].Prompt
	if batch <= 0 {
		batch = 200
	}
	if err := c.ensureSchema(ctx); err != nil {
		return nil, err
	}
	byID := make(map[string]Summary, len(sums))
	ids := make([]string, 0, len(sums))
	for _, s := range sums {
		if s.Hash == "" || s.Model == "" || s.Summary == "" {
			return nil, fmt.Errorf("publish summaries: a summary without its content hash, model or text (hash %q)", s.Hash)
		}
		id := SummaryID(s.Model, s.Prompt, s.Hash)
		if _, ok := byID[id]; !ok {
			byID[id] = s
			ids = append(ids, id)
		}
	}
	missing, err := c.missing(ctx, SummaryClass, ids)
	if err != nil {
		return nil, fmt.Errorf("publish summaries: %w", err)
	}
	rep.Sent, rep.Present = len(missing), len(ids)-len(missing)
	for b := 0; b < len(missing); b += batch {
		part := missing[b:min(b+batch, len(missing))]
		objs := make([]*models.Object, len(part))
		for i, id := range part {
			s := byID[id]
			keywords := s.Keywords
			if keywords == nil {
				keywords = []string{}
			}
			objs[i] = &models.Object{Class: SummaryClass, ID: uuidOf(id), Properties: map[string]any{
				"model": s.Model, "prompt": s.Prompt, "hash": s.Hash, "summary": s.Summary,
				"keywords": keywords, "purpose": s.Purpose, "generated": true,
			}}
		}
		if err := c.upsert(ctx, objs); err != nil {
			return nil, fmt.Errorf("publish summaries: %w", err)
		}
		if progress != nil {
			progress("publishing summaries", b+len(part), len(missing))
		}
	}
	return rep, nil
}

// attachSummaries gives each hit the generated summary the cluster holds
// for its content hash: of several (other chat models or prompt versions),
// the preferred model's, then the newest prompt's, then the first model
// by name, so every reader shows the same one.
func (c *Client) attachSummaries(ctx context.Context, hits []Hit, prefer string) error {
	var hashes []string
	seen := map[string]bool{}
	for _, h := range hits {
		if h.ContentHash != "" && !seen[h.ContentHash] {
			seen[h.ContentHash] = true
			hashes = append(hashes, h.ContentHash)
		}
	}
	if len(hashes) == 0 {
		return nil
	}
	rows, err := c.get(ctx, query{class: SummaryClass, fields: []string{"model", "prompt", "hash", "summary", "keywords", "purpose", "generated"},
		where: filters.Where().WithPath([]string{"hash"}).WithOperator(filters.ContainsAny).WithValueText(hashes...), limit: 10000})
	if err != nil {
		return err
	}
	best := map[string]*store.GeneratedSummary{}
	for _, r := range rows {
		if g, _ := r["generated"].(bool); !g || str(r, "summary") == "" {
			continue // not marked generated: never shown as a model's text, nor as the author's
		}
		g := &store.GeneratedSummary{Summary: str(r, "summary"), Keywords: strs(r, "keywords"), Purpose: str(r, "purpose"),
			Model: str(r, "model"), Prompt: int(num(r, "prompt")), Generated: true}
		if len(g.Keywords) == 0 {
			g.Keywords = nil
		}
		if cur := best[str(r, "hash")]; cur == nil || better(g, cur, prefer) {
			best[str(r, "hash")] = g
		}
	}
	for i := range hits {
		hits[i].GeneratedSummary = best[hits[i].ContentHash]
	}
	return nil
}

// better orders two summaries of one text for attachSummaries.
func better(a, b *store.GeneratedSummary, prefer string) bool {
	if (a.Model == prefer) != (b.Model == prefer) {
		return a.Model == prefer
	}
	if a.Prompt != b.Prompt {
		return a.Prompt > b.Prompt
	}
	return a.Model < b.Model
}
