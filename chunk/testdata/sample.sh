#!/bin/bash
set -euo pipefail

# Prints usage.
usage() {
    echo "usage: $0 file"
}

function build {
    make all
}

main() {
    usage
    build
}

main "$@"
