package cluster

import "context"

// Source is the local index of one repository, as publish reads it. The
// implementation over the git-dir store is in local.go; nothing else in
// this package knows how the index is laid out.
type Source interface {
	// Model is the ID of the embedder whose vectors are published.
	Model() string
	// Prepare resolves rev to a commit SHA and indexes what it lacks.
	Prepare(ctx context.Context, rev string) (commit string, err error)
	// Files lists the searchable files of a commit (skipped ones left out).
	// It reads git only, so it works for a commit that was never indexed.
	Files(ctx context.Context, commit string) ([]File, error)
	// Chunks returns the chunks of an indexed blob, in row order.
	Chunks(ctx context.Context, blob string) ([]Chunk, error)
}

// File is one path of a commit's tree and the blob it holds.
type File struct {
	Path, Blob string
}

// Chunk is one chunk of a blob as the local index holds it.
type Chunk struct {
	Hash                                   string // content hash of Text (hex); "" for a chunk with no text of its own
	Text                                   string // the indexed text the hash and vector are of
	Tokens                                 []string
	Name                                   string
	Kind                                   string
	Language                               string
	Signature                              string
	Doc                                    string
	Crumb                                  string // enclosing definitions, outermost first, joined by " › "
	StartLine, EndLine, StartByte, EndByte int
	Vector                                 []float32 // nil without a vector
}
