//go:build !nocluster

package main

import (
	"context"

	"github.com/bcindex/bcindex/cluster"
	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/mcp"
)

// clusterLinked: this build carries the Weaviate client (the default build,
// installed as git-bcindex-cluster); `-tags nocluster` leaves it out, and
// the cluster commands run that binary instead (cluster_off.go).
const clusterLinked = true

// remoteSearcher is the MCP search_remote tool's cluster.
func remoteSearcher(url string, emb embed.Embedder) mcp.RemoteSearcher {
	return clusterSearcher{url: url, emb: emb}
}

type clusterSearcher struct {
	url string
	emb embed.Embedder
}

func (r clusterSearcher) SearchRemote(ctx context.Context, q mcp.RemoteQuery) ([]mcp.RemoteHit, string, error) {
	c, err := cluster.Open(ctx, r.url)
	if err != nil {
		return nil, "", err
	}
	hits, err := cluster.Search(ctx, c, cluster.SearchOptions{Parsed: &q.Query, K: q.K, Repo: q.Repo, Refs: q.Refs,
		Path: q.Path, Lang: q.Lang, Kind: q.Kind, MaxLines: q.MaxLines, Embedder: r.emb, NoSummaries: q.NoSummaries})
	if err != nil {
		return nil, "", err
	}
	out := make([]mcp.RemoteHit, len(hits))
	for i, h := range hits {
		out[i] = mcp.RemoteHit{Hit: h.Hit, Repo: h.Repo}
	}
	return out, c.Warning(), nil
}
