#!/usr/bin/env bash
# Build git-bcindex and install it (and its man page) so that `git bcindex`
# works, with completion for bash, zsh and fish. Usage: ./install.sh [--prefix DIR] [--hooks]
#   --prefix DIR  install into DIR/bin, DIR/share/man/man1 and DIR/share's
#                 completion directories
#                 (default: /usr/local when writable, else ~/.local)
#   --hooks       also install the git hooks in the current repository
set -euo pipefail
cd "$(dirname "$0")"

prefix=""
hooks=0
while [ $# -gt 0 ]; do
  case "$1" in
    --prefix) prefix="$2"; shift 2 ;;
    --prefix=*) prefix="${1#*=}"; shift ;;
    --hooks) hooks=1; shift ;;
    -h|--help) sed -n '2,8p' "$0"; exit 0 ;;
    *) echo "install.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
if [ -z "$prefix" ]; then
  if [ -w /usr/local/bin ] 2>/dev/null; then prefix=/usr/local; else prefix="$HOME/.local"; fi
fi

for tool in go git gcc; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "install.sh: $tool is required (tree-sitter grammars are compiled with cgo)" >&2
    exit 1
  fi
done

mkdir -p "$prefix/bin" "$prefix/share/man/man1"
echo "building git-bcindex..."
# On amd64 the vector scan uses AVX2/AVX-512 through Go's simd/archsimd,
# which needs GOEXPERIMENT=simd; elsewhere it falls back to pure Go.
experiment=""
if [ "$(go env GOARCH)" = amd64 ] && GOEXPERIMENT=simd go version >/dev/null 2>&1; then experiment=simd; fi
# `git bcindex version` reports the checkout's commit and tag.
ldflags=""
if rev=$(git rev-parse HEAD 2>/dev/null); then
  ldflags="-X main.commit=$rev -X main.version=$(git describe --tags --always --dirty 2>/dev/null || echo devel)"
fi
# Two builds of one command: git-bcindex without the Weaviate client, so
# that every command, hook and search starts without its package
# initialisation (about half of the start-up time), and git-bcindex-cluster
# with it, which git-bcindex runs for publish, search --remote and mcp with a
# cluster configured.
GOEXPERIMENT="$experiment" CGO_ENABLED=1 go build -trimpath -tags nocluster -ldflags "$ldflags" -o "$prefix/bin/git-bcindex" ./cmd/git-bcindex
GOEXPERIMENT="$experiment" CGO_ENABLED=1 go build -trimpath -ldflags "$ldflags" -o "$prefix/bin/git-bcindex-cluster" ./cmd/git-bcindex
"$prefix/bin/git-bcindex" man > "$prefix/share/man/man1/git-bcindex.1"
# Completion scripts, generated from the command's own flag tree, where
# bash-completion, zsh and fish look for them (git's completion for each
# shell picks them up for `git bcindex` too).
comp="$prefix/share"
mkdir -p "$comp/bash-completion/completions" "$comp/zsh/site-functions" "$comp/fish/vendor_completions.d"
"$prefix/bin/git-bcindex" completion bash > "$comp/bash-completion/completions/git-bcindex"
"$prefix/bin/git-bcindex" completion zsh > "$comp/zsh/site-functions/_git-bcindex"
"$prefix/bin/git-bcindex" completion fish > "$comp/fish/vendor_completions.d/git-bcindex.fish"
echo "installed $prefix/bin/git-bcindex (and git-bcindex-cluster), $prefix/share/man/man1/git-bcindex.1 and completions for bash, zsh and fish"

case ":$PATH:" in
  *":$prefix/bin:"*) ;;
  *) echo "note: add $prefix/bin to PATH so that 'git bcindex' finds it" ;;
esac
if [ "$hooks" = 1 ]; then
  "$prefix/bin/git-bcindex" hooks install
fi
