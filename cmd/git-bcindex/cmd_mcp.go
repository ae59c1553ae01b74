package main

import (
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
	repo, s, err := openWithSettings(c)
	if err != nil {
		return err
	}
	rs, err := readRemoteSettings(repo)
	if err != nil {
		return err
	}
	srv := mcp.NewServer(repo, mcp.Options{
		Remote:      rs.url,
		Embedder:    s.embedder(),
		MaxFileSize: s.maxFileSize,
		Log:         c.App.ErrWriter,
	})
	return srv.Run(c.Context)
}
