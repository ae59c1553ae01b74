// Package checksum is the one CRC-32C (Castagnoli) that every index file
// and record is checked with: segments, postings, trigrams, vector parts,
// locators, listings, the manifest and the shared entries.
package checksum

import (
	"hash"
	"hash/crc32"
)

var table = crc32.MakeTable(crc32.Castagnoli)

// Sum returns the CRC-32C of b.
func Sum(b []byte) uint32 { return crc32.Checksum(b, table) }

// New returns a CRC-32C hash, for data written in pieces.
func New() hash.Hash32 { return crc32.New(table) }
