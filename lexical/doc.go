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
// by Open. Fixed-size integers are little-endian unless noted; uvarint is
// encoding/binary's unsigned varint.
//
//	header, 64 bytes:
//	  0  magic "BCLEX"
//	  5  uint8  version (2)
//	  6  uint8  doc-length width in bytes, 2 or 4
//	  7  uint8  terms per dictionary block, B >= 1 (the Writer uses 16)
//	  8  uint64 rows (1 + highest row added)
//	  16 uint64 terms
//	  24 uint64 total length (sum of doc lengths)
//	  32 uint64 dictionary bytes
//	  40 uint64 postings bytes
//	  48 uint32 CRC-32C of everything after the header
//	  52 12 bytes reserved, 0
//	block index, (ceil(terms/B)+1) entries of 20 bytes:
//	  8 bytes  key: the first 8 bytes of the block's first term, zero-padded
//	           (compared as a big-endian integer)
//	  uint64   offset of the block's first postings list in the postings
//	  uint32   offset of the block's first entry in the dictionary
//	  The last entry is a sentinel with key 0 and the section lengths, so
//	  that entry b+1 gives the end of block b.
//	dictionary: the terms in sorted order, in blocks of B (the last block
//	may be shorter); per term:
//	  uint8    prefix length (high 4 bits) and suffix length (low 4 bits);
//	           a field of 15 means the length is 15 + a uvarint that follows,
//	           prefix's first
//	  suffix   the term's bytes after the prefix it shares with the previous
//	           term of the block; the first term of a block is whole
//	           (prefix 0). The prefix is the longest common one, and the
//	           suffix is not empty.
//	  uvarint  document frequency (rows in the postings list), >= 1
//	  uvarint  length of the postings list in bytes, >= document frequency
//	  The postings lists follow each other in term order, so a term's list
//	  starts at its block's postings offset plus the lengths before it.
//	postings: per term, per row in ascending order,
//	  uvarint(gap<<2 | min(tf, 4)-1), gap = row - previous row - 1 with
//	           previous row -1 for the first, tf the term frequency >= 1
//	  uvarint(tf-4), only if tf >= 4
//	doc lengths: rows × uint16 or uint32, number of tokens in each row
//
// A row may have a length and no postings (Writer.AddLength): a segment
// stores postings once per distinct content, under the content's first
// row, and its other rows (copies) keep their lengths, so that the total
// length and the lengths of the rows a query sees are those of every row.
// The header's rows and total length count every row, the dictionary's
// document frequencies only the rows with postings. A merge
// (Writer.AppendRows) moves a row's postings to another row of the merged
// file when the first row of its content changes, corrected by the
// difference of the two rows' tokens (TokenDiff) where they differ.
//
// A lookup binary-searches the block index by key, touching the dictionary
// only for blocks whose key equals the term's, then scans one block. The
// keys keep the search within the compact block index rather than reading
// terms all over the dictionary, which matters once the file is larger than
// the CPU caches. The scan tracks the prefix the term shares with the
// current entry, so that most entries are passed over without comparing
// bytes. Sorted identifiers
// share long prefixes, and front coding stores them once per run.
//
// In a posting, the two low bits of the first uvarint hold the frequencies
// 1 to 3, which cover nearly 90% of the postings of indexed source code (60%
// are 1), so the typical posting of a frequent term takes one byte. On such
// an index a one-bit flag for tf > 1 makes the postings 14% larger, and a
// third bit saves under 2%.
//
// Open checks the header and sizes in constant time; Verify checks the
// checksum and every structure. Lookups and iterators bound-check
// everything they read, so a corrupt file yields errors or empty results,
// never a panic.
package lexical
