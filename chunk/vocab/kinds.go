package vocab

// Chunk kinds: what a chunk is. The chunker makes them; search, its
// filters and every front end read them.
const (
	KindFile      = "file"
	KindFunction  = "function"
	KindMethod    = "method"
	KindClass     = "class"
	KindType      = "type"
	KindInterface = "interface"
	KindStruct    = "struct"
	KindEnum      = "enum"
	KindSection   = "section"
	KindWindow    = "window"
	KindBlock     = "block"
	KindKey       = "key"
	KindParagraph = "paragraph"
	KindTrait     = "trait"
	KindModule    = "module"
	KindImpl      = "impl"
	KindConst     = "const"
	KindVar       = "var"
	KindTable     = "table" // SQL tables and views
	KindStage     = "stage" // Dockerfile build stages
)
