// Package chunk splits a source file into the units bcindex searches: the
// file itself, its definitions, markdown sections, or windows of lines.
//
// Every File starts with a "file" chunk spanning the whole content; the other
// chunks follow sorted by start byte, parents before children, each pointing
// at its enclosing chunk. Ranges of definitions and sections nest and never
// overlap their siblings; windows may overlap each other.
//
// Go, Python, JavaScript, TypeScript and TSX are parsed with tree-sitter:
//
//   - one chunk per function, method, class and type declaration (Go type
//     specs are "struct", "interface" or "type"; TypeScript interfaces, type
//     aliases and enums are "interface", "type" and "enum");
//   - methods are children of their class; Go methods are children of the
//     file, named by the method, with the receiver in the signature;
//   - a chunk starts at its doc comment (the comment lines directly above, no
//     blank line between) or first decorator; Doc holds the comment text or
//     the Python docstring without markers;
//   - nested functions stay inside the enclosing function;
//   - a function or class expression assigned to a top-level variable, an
//     export or a module.exports property is a chunk named by that name;
//   - TypeScript namespaces and ERROR nodes are looked through, so
//     definitions around a syntax error are still chunked.
//
// Markdown is split by headings found with a line scan: each section runs to
// the next heading of the same or a higher level and holds the deeper ones.
//
// Everything else, files whose parse yields only errors, and files over
// maxParseBytes become overlapping windows of 40 lines (Fallback). Split
// recovers from any panic the same way, so that one odd blob cannot stop an
// index run.
//
// IndexText gives the text to index for a chunk: its source with its
// definition children replaced by their signatures, so the file chunk reads
// as the code between definitions and a class as its header and member list.
package chunk
