// Package enhance has a chat model summarise chunks for search:
// `git bcindex enhance`.
//
// Definitions (macro chunks) are summarised first — a 2–3 sentence
// summary, 8–12 keywords and a purpose — then the logic blocks inside long
// definitions (micro chunks), one sentence each, with the definition's
// summary in the prompt. Chunks go in batches; the answer is one JSON
// object, validated per chunk; a malformed answer is asked again once,
// then the chunks it left out are skipped and counted.
//
// Summaries are stored in the index's Badger database by chunk content
// hash (as the indexer computes it), prompt version and model ("e/" keys,
// store/schema.go), batch by batch: a text is never asked for twice,
// whichever revision, branch or path holds it, and a run killed at any
// point resumes where it stopped. They are generated text, marked so, and
// never shown as the author's documentation. Each run ends by rewriting the
// summary index search ranks with (Reindex, store/sumindex.go).
package enhance
