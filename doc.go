// Package bcindex is a git-native code search tool: `git bcindex search`
// finds code in any revision of a repository by symbol, keyword and meaning.
//
// The commands are cmd/git-bcindex (the tool), cmd/bcindex-train (the
// model's trainer) and cmd/bcindex-bench (the benchmarks). Their packages,
// from the top down: each imports only packages listed below it.
//
//	bench/tokens     the tokens an agent reads to reach the answer, with the
//	                 mcp search tool and with grep-then-read (doc/agents.md)
//	agents    registering the mcp server with coding agents, in each one's
//	          own settings file (doc/agents.md)
//	ask       answers to questions by a chat model calling the mcp tools,
//	          with every citation checked against git (doc/llm.md)
//	mcp       the Model Context Protocol server for coding agents
//	web       the local web page (`git bcindex serve`)
//	enhance   chunk summaries written by a chat model, once per content
//	llm       the OpenAI-compatible chat-completions client
//	cluster   publishing to and searching a Weaviate cluster (linked only
//	          into git-bcindex-cluster: install.sh builds git-bcindex with
//	          -tags nocluster, and it runs that binary for the cluster commands)
//	bench     the benchmark harness: indexing and search on real code
//	bench/relevance  search quality on code-search suites in semble's shape
//	similar   similar: code like a change that the change did not touch
//	timeline  log: the chunks of an indexed history that match a query, and when
//	          each appeared, changed, moved and disappeared
//	search    the three arms (symbol, BM25, vector), fusion and ranking
//	grep/gitgrep  git bcindex grep's command line: git grep's options, configuration,
//	              revisions and paths, and output byte for byte
//	grep      exact search: what git grep finds, in revisions, the working tree
//	          or the index, candidates from the trigram postings verified
//	          against the blobs
//	pickaxe   log -S/-G: the commits where a string's count changed, from a
//	          cached table of each first-parent commit's changed blob pairs
//	          and git's patches of them, which a history index records
//	hooks     git hooks that keep the index fresh in the background
//	gc        garbage collection: what no ref reaches leaves the segments, Badger,
//	          the summaries and the listing cache
//	share     an index's chunk lists, vectors and summaries through git refs
//	          (push, fetch), each entry verified against the blobs it describes
//	indexer   the indexing pipeline: new blobs to chunks to vectors to the store;
//	          Ensure before a query, merging, status
//	indexing  what the front ends and the indexer agree on, without a parser:
//	          the request, the Ensure function the commands hand to mcp and
//	          web, the run's summary and progress, the index's status
//	store/storewrite  the store's write half: Badger opened for writing, its
//	          batches, the manifest written, the lock, the value log rewritten,
//	          the summary index written
//	store     the store's read half: the manifest, snapshots of the live
//	          segments and read-only views, the summary index; no write
//	train     mining, training, evaluating and adapting the built-in model
//	          (cmd/bcindex-train, `git bcindex adapt`)
//	query     a search query parsed once (words, code tokens, phrases, shape,
//	          the literal and its trigram plan) and its path filter, read by
//	          every part of a search
//	segment   the segment format: every file of a segment directory, its names,
//	          writing, reading, merging and checking
//	gitindex  git repositories (its own loose and pack readers, go-git for the
//	          rest): revisions, tree listings, diffs, history
//	embed     embedders: the built-in static code model and remote providers
//	lexical   the code-aware tokenizer and BM25 postings files
//	ngram     the exact-match index: per-segment trigram postings of each blob
//	exact     git grep's matching (-F, -E, -G, -i, -w, pattern expressions)
//	          and its trigram query plan
//	pathspec  git pathspecs: magic, the current directory, wildmatch
//	vector    int8 vectors: records, flat segment files, the scan
//	chunk     tree-sitter and text chunkers, the one package with cgo; it
//	          knows nothing of the index's formats above it
//	chunk/vocab  chunk kinds, language names and detection, the text a chunk
//	          is indexed by: what readers share with chunk, without cgo
//
// Helpers under internal/, each for the packages named:
//
//	internal/safepath      user-supplied revisions and paths resolved safely (mcp, web)
//	internal/mmap          read-only file mappings, the one helper with build tags
//	                       (lexical, ngram, vector, gitindex, segment)
//	internal/atomicfile    files written whole or not at all (store/storewrite, segment,
//	                       internal/cache, gitindex's listing cache)
//	internal/cache         derived files a query writes, under a lock it never waits
//	                       for (pickaxe's change tables)
//	internal/checksum      the one CRC-32C of every index file (store, store/storewrite,
//	                       segment, lexical, ngram, vector, gitindex, pickaxe, share)
//	internal/httpapi       JSON over HTTP with the retry rules embed and llm share
//	internal/reserved      packages kept out of training and benchmarks (train, bench)
//	internal/simdlevel     the SIMD level kernels may use, capped by BCINDEX_KERNEL (vector, embed)
//	internal/lazyre        regular expressions compiled on first use, not at start-up
//	                       (chunk, gitindex, train, ask, llm, mcp)
//
// Test fakes live under internal/testkit, which only tests import (a test
// of this package fails otherwise):
//
//	internal/testkit/chattest      a stand-in chat-completions server
//	internal/testkit/suite         the multilingual quality suite
//	internal/testkit/gittest       real git repositories in temporary directories
//	internal/testkit/indextest     test repositories opened, embeddings counted
//	internal/testkit/memtest       how much of a mapping is resident
//	internal/testkit/storetest     a real store's records read and written
//	internal/testkit/weaviatetest  real Weaviate servers on loopback
//
// doc/design.md explains the index design; store/schema.go holds the
// on-disk layout and its version.
package bcindex
