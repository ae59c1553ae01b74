// Package chunk splits a source file into the units bcindex searches: the
// file itself, its definitions, markdown sections, or windows of lines.
//
// Every File starts with a "file" chunk spanning the whole content; the other
// chunks follow sorted by start byte, parents before children, each pointing
// at its enclosing chunk. Ranges of definitions and sections nest and never
// overlap their siblings; windows may overlap each other.
//
// Go, Python, JavaScript (and JSX), TypeScript and TSX, Java, Rust, C, C++,
// C#, Ruby, PHP, Kotlin, Scala, Swift, Bash, Lua, Elixir, OCaml, HCL, SQL,
// Protobuf and Dockerfile are parsed with tree-sitter. Go, Python and the
// JavaScript family have hand-written visitors; the others are driven by a
// table per language (languages.go: node type → kind, name field, body).
//
//   - one chunk per function, method, class, struct, interface, enum, trait,
//     impl, module and type declaration; every named top-level constant
//     and variable is a "const" or "var" chunk, one-liners too (Go var and
//     const, Python module-level assignments, JavaScript/TypeScript const,
//     let and var, Ruby constants, Java static final fields, Rust const and
//     static, C #define and file-scope variables; values.go), and enum
//     members are "const" chunks of their enum; SQL CREATE TABLE/VIEW are
//     "table", HCL blocks "key", Dockerfile build stages "stage";
//   - methods are children of their class (struct, trait, impl...); Go
//     methods are children of the file, named by the method, with the
//     receiver in the signature; functions of a module stay functions;
//   - a chunk starts at its doc comment (the comment lines directly above, no
//     blank line between) or first decorator/attribute; Doc holds the comment
//     text, the Python docstring or Elixir @doc without markers;
//   - nested functions stay inside the enclosing function; in a function of
//     more than microMinFunc lines, logic blocks (loops, conditionals,
//     switch/match, try, with/using, closures) of microMinBlock lines or more
//     are "block" children named like "for-loop@L120", two levels deep, or
//     only the outermost over microTopOnly lines;
//   - a function or class expression assigned to a top-level variable, an
//     export or a module.exports property is a chunk named by that name;
//   - namespaces, preprocessor conditionals and ERROR nodes are looked
//     through, so definitions around a syntax error are still chunked; an
//     ERROR node of the file or a class body that yields no definition (or
//     a run of them on touching lines) is a window child flagged
//     SyntaxError, over whole lines, split like other windows when long.
//     Its lines stay in its parent's IndexText too.
//
// Markdown is split by headings found with a line scan: each section runs to
// the next heading of the same or a higher level and holds the deeper ones.
// JSON, YAML and TOML are split by top-level keys holding structure ("key");
// plain text by paragraphs ("paragraph", short ones grouped).
//
// A chunk whose own text is longer than longLines lines (the file chunk's
// code between definitions, a section, a key, a paragraph) gets overlapping
// window children over that text (by paragraphs for markdown sections);
// its IndexText is then "" and the windows carry the text.
//
// Everything else, files whose parse yields only errors, and files over
// maxParseBytes become overlapping windows of 40 lines (Fallback). Split
// recovers from any panic the same way, so that one odd blob cannot stop an
// index run.
//
// Every chunk carries metadata: QualifiedName, Access, Decorators, Imports
// and, with SyntaxError, ErrorDetail. EmbedWindows cuts a long IndexText
// into overlapping pieces within the embedder's budget.
//
// vocab.IndexText gives the text to index for a chunk (a File is its
// vocab.Spans): its source with its definition children replaced by their
// signatures, so the file chunk reads as the code between definitions and
// a class as its header and member list. The kinds and the language
// detection live in chunk/vocab too, which readers import without cgo.
//
// Edit chunks a new version of a Go file from its previous version's chunks:
// it keeps the top-level definitions the edit did not touch, parses only
// the header and the changed stretch (tree-sitter's included ranges keep
// positions those of the whole file) and returns what Split would, or
// reports that it cannot, and the caller uses Split.
package chunk
