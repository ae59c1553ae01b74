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

# Everything is built and checked in a temporary directory first; only a
# build that starts and passes its self-check is copied into the prefix, and
# a failure removes whatever this run wrote.
stage=$(mktemp -d)
written=()
cleanup() { rm -rf "$stage"; }
fail() {
  echo "install.sh: $*" >&2
  for f in "${written[@]}"; do rm -f "$f"; done
  cleanup
  exit 1
}
trap cleanup EXIT
trap 'fail "interrupted"' INT TERM

# `git bcindex version` reports the checkout's commit and tag.
ldflags=""
if rev=$(git rev-parse HEAD 2>/dev/null); then
  ldflags="-X main.commit=$rev -X main.version=$(git describe --tags --always --dirty 2>/dev/null || echo devel)"
fi
# The tree-sitter parsers (C, through cgo) are compiled at -O3 unless
# CGO_CFLAGS says otherwise: parsing is most of a cold index's CPU, and on
# semble's benchmark repositories -O3 took 4–5% off it (Go's default is
# -O2); the trees, and so the chunks and the index, are the same bytes.
: "${CGO_CFLAGS:=-O3 -g}"
export CGO_CFLAGS
# Two builds of one command: git-bcindex without the Weaviate client, so
# that every command, hook and search starts without its package
# initialisation (about half of the start-up time), and git-bcindex-cluster
# with it, which git-bcindex runs for publish, search --remote and mcp with a
# cluster configured.
build() { # GOEXPERIMENT value
  GOEXPERIMENT="$1" CGO_ENABLED=1 go build -trimpath -tags nocluster -ldflags "$ldflags" -o "$stage/git-bcindex" ./cmd/git-bcindex &&
    GOEXPERIMENT="$1" CGO_ENABLED=1 go build -trimpath -ldflags "$ldflags" -o "$stage/git-bcindex-cluster" ./cmd/git-bcindex
}
# A build must start (--version) and its vector kernels must agree with the
# portable one on this CPU (version --check) before it is installed.
check() {
  local bin out
  for bin in "$stage/git-bcindex" "$stage/git-bcindex-cluster"; do
    if ! out=$("$bin" --version 2>&1) || ! out=$("$bin" version --check 2>&1); then
      echo "install.sh: $(basename "$bin") did not start on this machine:" >&2
      printf '%s\n' "$out" | tail -n 5 >&2
      return 1
    fi
  done
}

echo "building git-bcindex..."
# On amd64 the vector scan uses AVX2/AVX-512 through Go's simd/archsimd,
# which needs GOEXPERIMENT=simd; the build picks the kernel from the CPU at
# start-up, and elsewhere it is pure Go.
experiment=""
if [ "$(go env GOARCH)" = amd64 ] && GOEXPERIMENT=simd go version >/dev/null 2>&1; then experiment=simd; fi
if [ -n "$experiment" ]; then
  if ! build "$experiment" || ! check; then
    echo "install.sh: the SIMD build failed its check; installing the portable build (slower vector scan)" >&2
    build "" || fail "go build failed (see above)"
    check || fail "the portable build does not start on this machine either (see above)"
  fi
else
  build "" || fail "go build failed (see above)"
  check || fail "the build does not start on this machine (see above)"
fi

mkdir -p "$prefix/bin" "$prefix/share/man/man1" || fail "cannot create $prefix/bin or $prefix/share/man/man1"
"$stage/git-bcindex" man > "$stage/git-bcindex.1" || fail "git-bcindex man failed"
# Completion scripts, generated from the command's own flag tree, where
# bash-completion, zsh and fish look for them (git's completion for each
# shell picks them up for `git bcindex` too).
for shell in bash zsh fish; do
  "$stage/git-bcindex" completion "$shell" > "$stage/completion.$shell" || fail "git-bcindex completion $shell failed"
done
[ -s "$stage/git-bcindex.1" ] || fail "git-bcindex man wrote nothing"
comp="$prefix/share"
mkdir -p "$comp/bash-completion/completions" "$comp/zsh/site-functions" "$comp/fish/vendor_completions.d" || fail "cannot create the completion directories under $comp"
install_file() { # source destination mode
  written+=("$2")
  cp "$1" "$2.tmp.$$" && chmod "$3" "$2.tmp.$$" && mv -f "$2.tmp.$$" "$2" || { rm -f "$2.tmp.$$"; fail "cannot write $2"; }
}
install_file "$stage/git-bcindex" "$prefix/bin/git-bcindex" 755
install_file "$stage/git-bcindex-cluster" "$prefix/bin/git-bcindex-cluster" 755
install_file "$stage/git-bcindex.1" "$prefix/share/man/man1/git-bcindex.1" 644
install_file "$stage/completion.bash" "$comp/bash-completion/completions/git-bcindex" 644
install_file "$stage/completion.zsh" "$comp/zsh/site-functions/_git-bcindex" 644
install_file "$stage/completion.fish" "$comp/fish/vendor_completions.d/git-bcindex.fish" 644
"$prefix/bin/git-bcindex" --version >/dev/null 2>&1 || fail "the installed $prefix/bin/git-bcindex does not start"
kernel=$("$prefix/bin/git-bcindex" version --json | sed -n 's/.*"kernel":"\([^"]*\)".*/\1/p')
echo "installed $prefix/bin/git-bcindex (and git-bcindex-cluster; vector kernel ${kernel:-?}), $prefix/share/man/man1/git-bcindex.1 and completions for bash, zsh and fish"

case ":$PATH:" in
  *":$prefix/bin:"*) ;;
  *) echo "note: add $prefix/bin to PATH so that 'git bcindex' finds it" ;;
esac
if [ "$hooks" = 1 ]; then
  "$prefix/bin/git-bcindex" hooks install
fi
