// Package bcindex is a git-native code search tool: `git bcindex search`
// finds code in any revision of a repository by symbol, keyword and meaning.
//
// The command is cmd/git-bcindex. Its packages, from the top down:
//
//	mcp       the Model Context Protocol server for coding agents
//	cluster   publishing to and searching a Weaviate cluster (linked only
//	          into git-bcindex-cluster: install.sh builds git-bcindex with
//	          -tags nocluster, and it runs that binary for the cluster commands)
//	search    the three arms (symbol, BM25, vector), fusion and ranking, history queries
//	pickaxe   log -S/-G: the commits where a string's count changed, from a
//	          cached table of each first-parent commit's changed blob pairs
//	hooks     git hooks that keep the index fresh in the background
//	train     mining, training, evaluating and adapting the built-in model
//	          (cmd/bcindex-train, `git bcindex adapt`)
//	indexer   the indexing pipeline: new blobs to chunks to vectors to the store
//	gitindex  repositories through go-git: revisions, tree listings, diffs, history
//	store     the Badger store, segments, the manifest, the lock
//	chunk     tree-sitter and text chunkers
//	embed     embedders: the built-in static code model and remote providers
//	lexical   the code-aware tokenizer and BM25 postings files
//	vector    int8 vectors: records, flat segment files, the scan
//
// doc/design.md explains the index design; store/schema.go holds the
// on-disk layout and its version.
package bcindex
