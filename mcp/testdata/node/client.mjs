// An independent MCP client for bcindex: the official TypeScript SDK spawns
// `git-bcindex --dir DIR mcp` over stdio, lists the tools, calls search,
// read_file and grep, and prints what it got as one JSON object for mcp/node_test.go.
//
// usage: node client.mjs /path/to/git-bcindex /path/to/repo
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const [bin, dir] = process.argv.slice(2);
if (!bin || !dir) {
  console.error("usage: node client.mjs GIT_BCINDEX REPO_DIR");
  process.exit(2);
}

const transport = new StdioClientTransport({ command: bin, args: ["--dir", dir, "mcp"], stderr: "inherit" });
const client = new Client({ name: "bcindex-node-test", version: "1.0.0" });
await client.connect(transport);

const tools = (await client.listTools()).tools.map((t) => t.name).sort();
const search = await client.callTool({ name: "search", arguments: { query: "retry with backoff", k: 3 } });
const read = await client.callTool({ name: "read_file", arguments: { path: "net/retry.go", start_line: 3, end_line: 5 } });
const escape = await client.callTool({ name: "read_file", arguments: { path: "../../etc/passwd" } });
const grep = await client.callTool({ name: "grep", arguments: { pattern: "delay \\*= \\d", revisions: ["HEAD", "v1"] } });

console.log(JSON.stringify({
  server: client.getServerVersion(),
  tools,
  search: { isError: !!search.isError, structured: search.structuredContent, text: search.content?.[0]?.text },
  read: { isError: !!read.isError, structured: read.structuredContent, text: read.content?.[0]?.text },
  escape: { isError: !!escape.isError, text: escape.content?.[0]?.text },
  grep: { isError: !!grep.isError, structured: grep.structuredContent, text: grep.content?.[0]?.text },
}));
await client.close();
