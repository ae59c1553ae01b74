#!/bin/sh
# Installs the TypeScript MCP SDK used by TestNodeClient (mcp/node_test.go),
# exactly as pinned in package-lock.json. CI runs this before `go test`;
# without it the node test is skipped.
set -eu
cd "$(dirname "$0")"
command -v npm >/dev/null 2>&1 || { echo "setup.sh: npm not found; TestNodeClient will be skipped" >&2; exit 0; }
npm ci --no-audit --no-fund
