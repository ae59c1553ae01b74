package embed

// Default returns the built-in offline embedder.
func Default() Embedder {
	return Hash{}
}
