// Package ask answers a question about one commit of a repository with a
// chat model that calls bcindex's own tools: `git bcindex ask`.
//
// The tools are the MCP server's (package mcp), reached over an in-process
// connection, so the model searches and reads under exactly the rules an
// outside agent does: paths inside the revision's tree only, every answer
// capped. The conversation runs until the model answers or a budget (turns,
// tokens) runs out; the last turn offers no tools.
//
// The answer is never printed as the model wrote it: every citation
// path:start-end@commit is read back from git under the same path rules,
// and one whose range does not exist, or whose lines do not hold the code
// the answer quotes beside it, is cut from the text and reported.
package ask
