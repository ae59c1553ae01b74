package cluster

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/weaviate/weaviate-go-client/v5/weaviate/schema"
	"github.com/weaviate/weaviate/entities/models"
)

// Collection names.
const (
	ChunkClass = "BcindexChunk"
	FileClass  = "BcindexFile"
	RefClass   = "BcindexRef"
)

// SchemaVersion is written into every collection's description; a cluster
// holding another version is refused rather than half-understood.
const SchemaVersion = 1

// ErrSchema means the cluster's collections were written by another
// version of bcindex (or by something else).
var ErrSchema = errors.New("cluster schema mismatch")

// Until of a file that is still visible.
const live = int64(1) << 30

func description(what string) string {
	return fmt.Sprintf("bcindex schema %d: %s", SchemaVersion, what)
}

func prop(name, typ, tokenization string, searchable, filterable bool) *models.Property {
	p := &models.Property{Name: name, DataType: []string{typ}, IndexSearchable: &searchable, IndexFilterable: &filterable}
	if typ == "text" || typ == "text[]" {
		p.Tokenization = tokenization
	}
	return p
}

// classes returns the collections, sharded over shards and replicated
// factor times.
func classes(shards, factor int) []*models.Class {
	// A replica that was down while file objects were marked and deleted
	// holds them as they were, still live, and async replication can pass
	// them back to the others: readers take the newest object of a path
	// (hits.go). (Resolving deletions by time instead lowered ranking
	// quality through the cluster by 0.03 MRR@10 in TestRemoteQuality.)
	repl := &models.ReplicationConfig{Factor: int64(factor), AsyncEnabled: factor > 1}
	shard := map[string]any{"desiredCount": shards}
	chunk := &models.Class{
		Class:       ChunkClass,
		Description: description("one object per (model, chunk content hash)"),
		Vectorizer:  "none",
		VectorIndexConfig: map[string]any{
			"distance": "dot", // bcindex vectors are L2-normalised
		},
		InvertedIndexConfig: &models.InvertedIndexConfig{Bm25: &models.BM25Config{K1: 1.2, B: 0.75}},
		Properties: []*models.Property{
			prop("model", "text", models.PropertyTokenizationField, false, true),
			prop("hash", "text", models.PropertyTokenizationField, false, true),
			prop("tokens", "text", models.PropertyTokenizationWhitespace, true, false),
			prop("text", "text", models.PropertyTokenizationWord, false, false),
			prop("name", "text", models.PropertyTokenizationField, false, true),
			prop("kind", "text", models.PropertyTokenizationField, false, true),
			prop("language", "text", models.PropertyTokenizationField, false, true),
			prop("signature", "text", models.PropertyTokenizationWord, false, false),
			prop("doc", "text", models.PropertyTokenizationWord, false, false),
		},
		ReplicationConfig: repl,
		ShardingConfig:    shard,
	}
	file := &models.Class{
		Class:       FileClass,
		Description: description("where chunks occur: (repository, ref, path, blob), visible for generations [from, until)"),
		Vectorizer:  "none",
		VectorIndexConfig: map[string]any{
			"skip": true, // files carry no vector
		},
		Properties: []*models.Property{
			prop("repo", "text", models.PropertyTokenizationField, false, true),
			prop("ref", "text", models.PropertyTokenizationField, false, true),
			prop("path", "text", models.PropertyTokenizationField, false, true),
			prop("blob", "text", models.PropertyTokenizationField, false, false),
			prop("chunks", "text[]", models.PropertyTokenizationField, false, true),
			prop("spans", "int[]", "", false, false),
			prop("crumbs", "text[]", models.PropertyTokenizationField, false, false),
			prop("seq", "number", "", false, true),
			prop("from", "int", "", false, true),
			prop("until", "int", "", false, true),
		},
		ReplicationConfig: repl,
		ShardingConfig:    shard,
	}
	ref := &models.Class{
		Class:             RefClass,
		Description:       description("one object per (repository, ref): its published commit and generation"),
		Vectorizer:        "none",
		VectorIndexConfig: map[string]any{"skip": true},
		Properties: []*models.Property{
			prop("repo", "text", models.PropertyTokenizationField, false, true),
			prop("ref", "text", models.PropertyTokenizationField, false, true),
			prop("commit", "text", models.PropertyTokenizationField, false, false),
			prop("model", "text", models.PropertyTokenizationField, false, false),
			prop("gen", "int", "", false, false),
			prop("pending", "text", models.PropertyTokenizationField, false, false),
		},
		ReplicationConfig: repl,
		ShardingConfig:    map[string]any{"desiredCount": 1}, // a few thousand small objects
	}
	return []*models.Class{chunk, file, ref, summaryClass(repl, shard)}
}

// checkSchema compares the cluster's collections with ours: it returns the
// names of those missing, or ErrSchema when one exists in another version.
func (c *Client) checkSchema(ctx context.Context) (missing []string, err error) {
	var s *schema.Dump
	err = retry(ctx, func() error {
		var err error
		s, err = c.w.Schema().Getter().Do(ctx)
		return maybeTransient(c.wrap("read the schema", err))
	})
	if err != nil {
		return nil, err
	}
	have := map[string]*models.Class{}
	for _, cl := range s.Classes {
		have[cl.Class] = cl
	}
	for _, want := range classes(1, 1) {
		got, ok := have[want.Class]
		if !ok {
			missing = append(missing, want.Class)
			continue
		}
		if got.Class == ChunkClass && got.InvertedIndexConfig != nil && got.InvertedIndexConfig.UsingBlockMaxWAND {
			c.blockMax.Store(true)
		}
		if got.Description != want.Description || !sameProperties(got.Properties, want.Properties) {
			return nil, fmt.Errorf("%w: collection %s at %s is not bcindex schema %d (%q): publish into an empty cluster, or delete the Bcindex* collections and publish again",
				ErrSchema, want.Class, c.url, SchemaVersion, got.Description)
		}
	}
	return missing, nil
}

func sameProperties(got, want []*models.Property) bool {
	names := map[string]string{}
	for _, p := range got {
		names[p.Name] = strings.Join(p.DataType, ",")
	}
	for _, p := range want {
		if names[p.Name] != strings.Join(p.DataType, ",") {
			return false
		}
	}
	return true
}

// ensureSchema creates the collections the cluster lacks, sharded over its
// nodes and replicated up to three times.
func (c *Client) ensureSchema(ctx context.Context) error {
	missing, err := c.checkSchema(ctx)
	if err != nil || len(missing) == 0 {
		return err
	}
	nodes, err := c.nodeCount(ctx)
	if err != nil {
		return err
	}
	factor := min(nodes, 3)
	for _, cl := range classes(nodes, factor) {
		for _, m := range missing {
			if cl.Class != m {
				continue
			}
			if err := c.w.Schema().ClassCreator().WithClass(cl).Do(ctx); err != nil {
				// Another publisher may have created it meanwhile.
				if again, cerr := c.checkSchema(ctx); cerr == nil && !slices.Contains(again, m) {
					continue
				}
				return c.wrap("create collection "+m, err)
			}
		}
	}
	// Read back what the server made of them (Warning).
	_, err = c.checkSchema(ctx)
	return err
}

func (c *Client) nodeCount(ctx context.Context) (int, error) {
	var st *models.NodesStatusResponse
	err := retry(ctx, func() error {
		var err error
		st, err = c.w.Cluster().NodesStatusGetter().Do(ctx)
		return maybeTransient(c.wrap("list the cluster's nodes", err))
	})
	if err != nil {
		return 0, err
	}
	return max(1, len(st.Nodes)), nil
}
