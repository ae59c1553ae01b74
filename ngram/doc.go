// Package ngram is the exact-match index: for every blob of a segment, the
// set of trigrams its bytes hold, as postings lists keyed by trigram. A
// query's trigram plan (package exact) selects the blobs that may hold a
// match; the caller verifies each candidate against the blob's bytes, so
// the index only has to be a necessary condition, never a sufficient one.
//
// Trigrams are file-level (no positions) and taken over bytes with ASCII
// letters folded to lower case (exact.Fold), so one index serves case
// sensitive and insensitive queries alike; a case-sensitive query simply
// verifies a few more candidates. Codesearch measured file-level trigram
// lists at a few percent of the source bytes; positions would multiply
// that for a gain only in the verification step, which reads the
// candidate blobs anyway.
//
// A text blob of PiecedSize or more is also indexed in pieces of whole
// lines, each a document after the blob's own: a query whose matches lie
// within a line (exact.Query's Lines) rules the blob out unless one piece
// may hold a match, where the blob's document alone holds nearly every
// trigram a query asks for.
//
// Documents are numbered by the min-hash signatures of their trigram sets
// (a blob's pieces right after its document), so that near-identical sets,
// the versions of a file a history's segment holds, are neighbours and
// their shared trigrams' postings are runs of consecutive documents; ties
// keep the order the writer received them in. The file maps each document
// to its blob's index in the segment's chunk table (chunks.bin, sorted by
// blob SHA) and back, so that the index stores no blob names of its own.
//
// # File format (grams.bin, little endian)
//
//	header, 64 bytes:
//	  0  magic "BCGRAM05" (still read: "BCGRAM04", whose postings are a
//	     uvarint gap per document; "BCGRAM03", that and no pieces;
//	     "BCGRAM02", whose trigram entries are 12 bytes, uint32 trigram
//	     then uint64 offset; "BCGRAM01", those and binary blobs without
//	     documents)
//	  8  uint32 documents
//	  12 uint32 blobs (of the segment's chunk table)
//	  16 uint32 trigrams
//	  20 uint32 0
//	  24 uint64 postings bytes
//	  32 uint32 CRC-32C of everything after the header
//	  36 24 bytes 0
//	  60 uint32 CRC-32C of bytes 0..59
//	docBlob: documents × uint32, each document's blob index, with bit 31
//	         set for a piece of the blob (see Pieces), which follows the
//	         blob's document or another of its pieces
//	blobDoc: blobs × uint32, each blob's document, with bit 31 set for a
//	         binary blob (which git grep -I passes over and git grep
//	         matches whole, and whose document holds its trigrams of text
//	         bytes only: see TextTrigram), or 0xffffffff when the blob has no trigrams
//	         here (not read whole); 0xfffffffe, a binary blob without
//	         trigrams, only in files of the first version
//	grams:   (trigrams+1) × 8 bytes, sorted by trigram: a uint64 whose
//	         low 24 bits are the trigram (b0<<16 | b1<<8 | b2) and high 40
//	         the offset of its postings list; the last entry is a
//	         sentinel (trigram 0xffffff, offset the postings bytes), so
//	         that entry i+1 gives the end of list i
//	postings: per trigram the documents holding it, ascending, as runs of
//	         consecutive documents: per run a uvarint of gap<<1 | (length
//	         > 1), gap being the run's first document minus the previous
//	         run's last minus one (the first run: its first document), and
//	         for a run of more than one document a uvarint of its length
//	         minus two
//
// Open checks the header and sizes; Verify checks the checksums and every
// structure. Reads are bound-checked, so a damaged file yields an error or
// an empty list, never a panic.
package ngram
