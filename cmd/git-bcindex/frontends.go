package main

import (
	"github.com/bcindex/bcindex/chunk"
	"github.com/bcindex/bcindex/indexer"
	"github.com/bcindex/bcindex/mcp"
	"github.com/bcindex/bcindex/web"
)

// The front ends link no parser: the command hands them the indexer that
// brings the index up to date before they read (indexer.Ensurer) and, for
// the MCP chunk tools, the chunker of blobs the index lacks.

// mcpOptions are the MCP server's options of the settings.
func (s settings) mcpOptions() mcp.Options {
	return mcp.Options{Embedder: s.embedder(), Ensure: indexer.Ensurer(s.indexOptions()), Split: mcpChunks}
}

// webOptions are the web pages' options of the settings.
func (s settings) webOptions() web.Options {
	return web.Options{Embedder: s.embedder(), Ensure: indexer.Ensurer(s.indexOptions())}
}

// mcpChunks are chunk.Split's chunks of a blob, as the MCP chunk tools
// show them.
func mcpChunks(path string, content []byte) (string, []mcp.Chunk) {
	f := chunk.Split(path, content)
	out := make([]mcp.Chunk, len(f.Chunks))
	for i, c := range f.Chunks {
		out[i] = mcp.Chunk{Kind: c.Kind, Name: c.Name, Signature: c.Signature, Parent: c.Parent,
			StartLine: c.StartLine, EndLine: c.EndLine, StartByte: c.StartByte, EndByte: c.EndByte}
	}
	return f.Language, out
}
