// Package vector stores quantised embedding vectors and answers
// nearest-neighbour queries over them: exactly, or for large segments
// through a sign-bit pre-filter.
//
// # Where vectors live
//
// A store keeps each segment's vectors of one model as parts in the segment
// format below ([EncodeParts]: [PartRows] rows each, at most 16 MB), one
// stored value per part, and a query maps each part where the store wrote
// it ([OpenRegions]: a file, an offset and a length per part) and scans
// it through a read-only memory map ([Segment.Search]) at close to memory
// bandwidth: never through the store's API, which iterates at a few hundred
// MB/s (1.5–7 s for a million vectors). A lone segment file ([Open]) is
// the same format, one part.
//
// The bytes under a mapping can vanish: a store that rewrites its log
// truncates the old file. Every method that reads mapped rows turns the
// resulting fault into [ErrFault] (runtime/debug.SetPanicOnFault), so the
// caller opens the segment again where the rows are now.
//
// # Quantisation
//
// [Quantize] maps a vector v to int8 values q in [-127, 127] and one float32
// scale with v ≈ q*scale, where scale = max|v_i|/127 (symmetric max-abs, so
// each component is off by at most scale/2). A vector that is all zero or has
// a NaN or infinite component gets scale 0, which means "no vector": such a row
// never matches a query.
//
// Search quantises the query too, to integers in [-63, 63] with its own scale
// (the SIMD kernels multiply bytes, see queryMax; on the quality suite this
// ranks as 16-bit queries did), and scores each row with an exact integer
// dot product:
//
//	score = float32(dot(qquery, qrow)) * (qscale/|query|) * rowscale
//
// The integer products and sums are exact (the query range is chosen so that no
// int32 partial sum can overflow), so the result does not depend on the order
// of summation, the number of goroutines or which kernel ran: the pure Go
// kernel and the SIMD kernel (Go's simd/archsimd, built with
// GOEXPERIMENT=simd on amd64) return identical hits. Ties on score are broken
// by the lower row number.
//
// # Speed
//
// Search runs up to runtime.GOMAXPROCS goroutines, each keeping a bounded
// top-k heap, and merges them. They take 1 MB runs of rows from a shared
// counter rather than a fixed share each, so on a shared machine a core that
// another process slows down scans less instead of delaying the result. Built with GOEXPERIMENT=simd on an
// amd64 CPU with AVX2 or AVX-512, the kernel (VPMADDUBSW on sign-flipped row
// bytes) runs at about memory bandwidth (a million 256-d rows in roughly
// 12 ms on one core); the portable Go
// kernel is about an order of magnitude slower. BenchmarkScanVsMem reports the
// ratio to a plain read of the same bytes.
//
// A segment of at least 65,536 candidate rows is not scanned exactly: the
// rows' sign bits, which each part stores, pick the rows nearest the
// query, and only those are scored (prefilter.go, sketch.go);
// SearchDepth with depth 0 always scans every row.
//
// # Segment file format (version 2)
//
// All integers are little-endian. The header is 64 bytes:
//
//	off len field
//	  0   5 magic "BCVEC"
//	  5   1 reserved, 0
//	  6   2 format version, 2
//	  8   4 dim (1..65536)
//	 12   4 reserved, 0
//	 16   8 rows
//	 24   8 offset of the vector block (64)
//	 32   8 offset of the scale block (vector block end rounded up to 64)
//	 40   8 file size (sign block offset + 8*words*rows)
//	 48   4 CRC-32C of everything after the header
//	 52   8 offset of the sign block (scale block end rounded up to 64)
//	 60   4 CRC-32C (Castagnoli) of bytes 0..59
//
// The vector block holds rows*dim int8 values, row after row; zero padding
// follows up to a 64-byte boundary; the scale block holds rows float32 scales,
// then zero padding up to a 64-byte boundary; the sign block holds each
// row's sign bits in words = (dim+63)/64 uint64s: bit i%64 of word i/64
// set when the row's value i is negative (the pre-filter's sketch,
// sketch.go; 32 bytes for 256 dimensions, an eighth of the row's values).
// Version 1, without the sign block, is not read: a store of it is
// rebuilt (its schema is older).
// Keeping the int8 data in one contiguous, aligned block (and the scales in
// another) lets a scan stream memory front to back with full-width SIMD loads.
// A row added without a vector has dim zero bytes and scale 0.
//
// Open and OpenRegions validate each part's header, its checksum, the
// dimensions and the exact size before mapping, so a truncated or corrupt
// part is reported as an error. They do not check the body checksum, which
// means reading every byte; Verify and VerifyPart do. Segment files are
// written to path+".tmp" and renamed into place only when complete, and
// parts are never modified where they were written, which is what makes it
// safe to map them.
package vector
