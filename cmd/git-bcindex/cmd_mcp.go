package main

import (
	"fmt"
	"os/signal"
	"syscall"

	"github.com/urfave/cli/v2"

	"github.com/bcindex/bcindex/mcp"
)

func mcpCommand() *cli.Command {
	return &cli.Command{
		Name:  "mcp",
		Usage: "serve search and read tools to coding agents over MCP (stdio)",
		Description: `Speaks the Model Context Protocol on stdin/stdout until the client disconnects.
Configure an MCP client with:
  {"mcpServers": {"bcindex": {"command": "git", "args": ["bcindex", "mcp"]}}}
or, for a fixed repository, "args": ["bcindex", "--dir", "/path/to/repo", "mcp"].`,
		Action: runMCP,
	}
}

func runMCP(c *cli.Context) error {
	repo, s, rs, err := openWithRemote(c)
	if err != nil {
		return err
	}
	var remote mcp.RemoteSearcher
	if rs.url != "" {
		if !clusterLinked {
			// The search_remote tool needs the cluster client.
			if _, err := clusterBinary(); err == nil {
				return runClusterBinary(c)
			}
			fmt.Fprintf(c.App.ErrWriter, "bcindex mcp: search_remote is off: %s, the build with the Weaviate client, is not installed beside git-bcindex (./install.sh installs both)\n", clusterBinaryName)
		}
		remote = remoteSearcher(rs.url, s.embedder())
	}
	opts := s.mcpOptions()
	opts.Remote, opts.Version, opts.Log = remote, readBuildInfo().Version, c.App.ErrWriter
	srv := mcp.NewServer(repo, opts)
	// A client that closes the server's stdout ends the session with an
	// error on stderr (the client's log), not with a silent SIGPIPE.
	signal.Ignore(syscall.SIGPIPE)
	return srv.Run(c.Context)
}
