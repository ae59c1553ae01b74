#!/usr/bin/env bash
# Build git-bcindex and install it (and its man page) so that `git bcindex`
# works. Usage: ./install.sh [--prefix DIR] [--hooks]
#   --prefix DIR  install into DIR/bin and DIR/share/man/man1
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
    -h|--help) sed -n '2,7p' "$0"; exit 0 ;;
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
GOEXPERIMENT="$experiment" CGO_ENABLED=1 go build -trimpath -o "$prefix/bin/git-bcindex" ./cmd/git-bcindex
"$prefix/bin/git-bcindex" man > "$prefix/share/man/man1/git-bcindex.1"
echo "installed $prefix/bin/git-bcindex and $prefix/share/man/man1/git-bcindex.1"

case ":$PATH:" in
  *":$prefix/bin:"*) ;;
  *) echo "note: add $prefix/bin to PATH so that 'git bcindex' finds it" ;;
esac
if [ "$hooks" = 1 ]; then
  "$prefix/bin/git-bcindex" hooks install
fi
