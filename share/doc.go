// Package share moves the content-keyed part of an index through git refs
// (`git bcindex push` and `fetch`): what each blob chunks into and each
// chunk's vector under refs/bcindex/<model>, and generated summaries under
// their own ref. A receiver verifies every entry against the blobs it has
// before it stores the vectors (in the store, where the indexer finds them)
// or hands the chunk lists to the indexer, which then embeds nothing it was
// given. See share.go for the format.
package share
