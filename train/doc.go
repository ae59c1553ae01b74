// Package train mines (doc first sentence, code) pairs with package chunk,
// trains the built-in static code model of package embed on them, evaluates
// models against BM25 on held-out packages, and adapts a trained model to one
// repository's own code (`git bcindex adapt`).
//
// Training is deterministic for a corpus and a seed: every sum runs in a
// fixed order whatever the number of workers, so the same inputs give the
// same model file, byte for byte.
package train
