// Package gc collects an index's garbage (`git bcindex gc`): everything
// no ref reaches — blobs in the segments (merged into as few as possible
// through the indexer), blob records and vectors in Badger, generated
// summaries of texts only dead blobs hold, and cached listings of
// unreachable trees — under the index lock.
package gc
