// Package lexical implements the code-aware tokenizer and the immutable
// inverted index (postings file) behind bcindex's keyword (BM25) search.
//
// # Tokens
//
// Tokens is used for documents and queries alike, so whatever it does to one
// it does to the other. It makes a single pass over the text (no regexp) and:
//
//   - Finds identifiers: maximal runs of letters, digits, combining marks and
//     '_'. A '-' also joins an identifier when it follows a letter or digit and
//     precedes a letter (kebab-case: "max-width", "git-bcindex"), so that
//     "a-1", "x->y" and "--flag" are not joined. Every other rune, including
//     invalid UTF-8 and U+FFFD, separates identifiers.
//   - Splits an identifier into sub-tokens at '_' and '-', at a lower→upper
//     change ("parseJson" → parse, json), before the last capital of a capital
//     run that is followed by a lowercase letter ("HTTPServer" → http, server),
//     at every letter↔digit change ("parseJSON2Yaml" → parse, json, 2, yaml;
//     "utf8" → utf, 8), and between caseless letters (Han, Arabic, ...) and
//     cased ones. A single lowercase letter after a capital run stays with it
//     ("URLs" → urls, "userIDs" → user, ids, "IPv6" → ipv, 6).
//   - Lowercases (simple Unicode case mapping, rune by rune).
//   - Keeps digit runs as tokens, even a single digit: numbers such as 404,
//     8080, 64 or the 2 in "h2"/"oauth2" are real signal, and BM25's IDF
//     takes care of very common ones like 0 and 1.
//   - Drops one-byte letter tokens (i, x, a, the v of "v2"); single
//     non-ASCII letters ("π", "中") are kept.
//   - Drops these English stop words, whether they are a whole word or a
//     sub-token ("isValid" → valid, isvalid): the a an of to and or is in for
//     with on by be this that it as at.
//   - Drops tokens longer than 64 bytes (minified code, base64, hashes).
//   - Emits, after its sub-tokens, the whole identifier lowercased (with its
//     inner '_'/'-' kept, outer ones trimmed) when it has more than one
//     sub-token, before filtering: "HTTPServer" → http, server, httpserver;
//     "parse_json" → parse, json, parse_json; "__init__" → init. An exact
//     identifier query therefore matches its definition and uses strongly.
//
// Tokens are always valid, non-empty, lowercase UTF-8.
//
// # File format
//
// A postings file is written once by Writer.WriteFile (temporary file in the
// same directory, fsync, rename, directory fsync) and memory-mapped read-only
// by Open. All integers are little-endian.
//
//	header, 64 bytes:
//	  0  magic "BCLEX"
//	  5  uint8  version (1)
//	  6  uint8  doc-length width in bytes, 2 or 4
//	  7  uint8  reserved, 0
//	  8  uint64 rows (1 + highest row added)
//	  16 uint64 terms
//	  24 uint64 total length (sum of doc lengths)
//	  32 uint64 term bytes (length of the term blob)
//	  40 uint64 postings bytes (length of the postings section)
//	  48 uint32 CRC-32C of everything after the header
//	  52 12 bytes reserved, 0
//	term table, (terms+1) entries of 16 bytes, sorted by term:
//	  uint32 offset of the term in the term blob
//	  uint32 document frequency (rows in the postings list)
//	  uint64 offset of the postings list in the postings section
//	  The last entry is a sentinel holding the section lengths, so that
//	  entry i+1 gives the end of term i and of its postings list.
//	term blob: the terms' bytes, concatenated in sorted order
//	postings: per term, per row in ascending order,
//	  uvarint(row - previous row), previous row starting at -1
//	  uvarint(term frequency in the row), >= 1
//	doc lengths: rows × uint16 or uint32, number of tokens in each row
//
// The term table is binary-searched in place, so a lookup touches
// O(log terms) entries and one postings list. Open checks the header and
// sizes in constant time; Verify checks the checksum and every structure.
// Lookups and iterators bound-check everything they read, so a corrupt file
// yields errors or empty results, never a panic.
package lexical
