// Package gitgrep is git grep's command line over bcindex: its options
// read as git's parse-options reads them (Parse), its configuration
// (grep.*, color.grep.*, core.quotePath), the split of revisions from
// paths, pattern files, the sources it reads (working tree, index,
// untracked files, revisions, a directory with --no-index), and its
// output byte for byte (grep.c's rendering, colours, -p and -W, -O),
// plus bcindex's own ref selection (--ref, --all-branches, --tags, --all),
// globs and JSON. Run does the search with package grep over the view
// the command opens; the command parses, calls Run and maps errors to
// exit codes.
package gitgrep
