// Package checksum is the one CRC-32C (Castagnoli) that every index file
// and record is checked with: segments, postings, trigrams, vector parts,
// locators, listings, the manifest and the shared entries.
package checksum

import (
	"hash"
	"hash/crc32"
	"sync"
)

// table is built on first use: building it (the SSE 4.2 path's tables
// included) is a cost every command would otherwise pay at start-up.
var table = sync.OnceValue(func() *crc32.Table { return crc32.MakeTable(crc32.Castagnoli) })

// Sum returns the CRC-32C of b.
func Sum(b []byte) uint32 { return crc32.Checksum(b, table()) }

// New returns a CRC-32C hash, for data written in pieces.
func New() hash.Hash32 { return crc32.New(table()) }
