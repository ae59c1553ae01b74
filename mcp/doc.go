// Package mcp serves bcindex to LLM coding agents over the Model Context
// Protocol: `git bcindex mcp` speaks MCP on stdin/stdout, through the
// official Go SDK (github.com/modelcontextprotocol/go-sdk).
//
// # Client configuration
//
// Add the server to an MCP client (Claude Code, Claude Desktop, Cursor,
// ...) in its mcpServers configuration. Started in the repository:
//
//	{"mcpServers": {"bcindex": {"command": "git", "args": ["bcindex", "mcp"]}}}
//
// or for a fixed repository, wherever the client starts it:
//
//	{"mcpServers": {"bcindex": {"command": "git", "args": ["bcindex", "--dir", "/path/to/repo", "mcp"]}}}
//
// With Claude Code: claude mcp add bcindex -- git bcindex mcp
//
// # Tools
//
// Every tool takes an optional rev (any revision git understands; default
// HEAD) and reads git objects only, never the working tree:
//
//   - search: ranked chunks for a query (hybrid, symbol, text or vector
//     mode; path glob, language and kind filters), with provenance (rev,
//     commit, blob, chunk ID). A revision not indexed yet is indexed first
//     (missing blobs only), with progress notifications when the client
//     sends a progress token.
//   - grep: every line matching a regex (RE2) or fixed string, like git
//     grep: complete and in path order, answered from the trigram index
//     and verified against the blobs; case, word, path glob, several
//     revisions at once (each line names the revisions holding it), paged
//     with max_matches and offset.
//   - get_chunk: a chunk ID → its full text, its parent chunk and the
//     names of its siblings and children.
//   - file_chunks: the outline of one file.
//   - read_file: lines of a file with line numbers.
//   - list_directory: a directory of the tree, with sizes and languages.
//   - index_status: what `git bcindex status` reports.
//
// # Budgets and safety
//
// Every answer is capped (hits, lines, bytes, entries) with a default and a
// hard ceiling (see budget.go); a truncated answer says so and how to get
// the rest. Paths are resolved inside the revision's tree only: absolute
// paths, ".." and paths through committed symlinks or submodules are refused
// with an error that says why, under the rules of package internal/safepath,
// which the web page follows too. Bad arguments become tool errors; a panic
// in a tool is recovered into one, so the server keeps serving. On stdio, a
// line that is not JSON gets a parse error (-32700) and one that is not a
// request, or longer than 4 MiB, an invalid-request error (-32600); the
// server reads on (stdio.go).
package mcp
