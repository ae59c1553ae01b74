// Package agents registers `git bcindex mcp` with the coding agents a
// developer uses, in each agent's own configuration file and format, and
// writes a marked section into AGENTS.md and CLAUDE.md saying when to call
// which tool.
//
// Every edit is a patch, not a rewrite: JSON and JSON-with-comments files
// (VS Code, Zed, opencode) are parsed with github.com/tailscale/hujson and
// one member is inserted into or removed from the parsed tree, so comments,
// trailing commas, key order and indentation elsewhere stay byte for byte;
// Codex's TOML gets a table of its own appended, checked with a TOML
// parser before it is written. Files are replaced atomically (a temporary
// file renamed over the old one), never half written.
//
// What install adds is recognised by its content, so no state is kept:
// the entry named "bcindex" whose value is exactly what install writes,
// the TOML table install writes, the section between the bcindex markers.
// Uninstall removes those and nothing else: an entry named bcindex that
// someone changed by hand is reported and left alone. A container object
// or file that install created and that holds nothing else afterwards is
// removed with it.
package agents
