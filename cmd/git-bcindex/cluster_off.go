//go:build nocluster

package main

import (
	"github.com/urfave/cli/v2"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/mcp"
	"github.com/bcindex/bcindex/query"
)

// clusterLinked: this build leaves the Weaviate client out (install.sh's
// git-bcindex), so that every command starts without its package
// initialisation; publish, search --remote and mcp with a cluster
// configured run git-bcindex-cluster, the build that has it.
const clusterLinked = false

func runPublish(c *cli.Context) error { return runClusterBinary(c) }

func runRemoteSearch(c *cli.Context, _ *query.Query) error { return runClusterBinary(c) }

func remoteSearcher(string, embed.Embedder) mcp.RemoteSearcher { return nil }
