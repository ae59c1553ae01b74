package chunk

import "github.com/bcindex/bcindex/chunk/vocab"

// FromShared completes the chunks another index made of content, as a
// shared index carries them (places, names, signatures; verified against
// content by the caller): the language and the metadata Split derives from
// the source (qualified names, access, imports) are filled in here, so that
// the file is indexed without parsing it. Doc comments are not recovered:
// they come from the parse.
func FromShared(path string, content []byte, chunks []Chunk) File {
	f := File{Language: vocab.DetectLanguage(path, content), Chunks: chunks}
	annotate(&f, content)
	return f
}
