package gc

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/internal/atomicfile"
	"github.com/bcindex/bcindex/internal/checksum"
	"github.com/bcindex/bcindex/store"
)

// liveFile records the blobs the refs' trees held at the last gc, and a
// path of each: the next gc whose refs name the same trees reads them back
// instead of listing every tree again. gc lists the refs' trees without
// caching their listings (a repository's tags alone are hundreds of
// trees), so each gc otherwise derived every tag's tree from the previous
// one: a gc with nothing to do on fastapi (329 refs) took 0.7–1.0 CPU-s
// that way and 0.16 with the record. Trees never change, so the same
// trees hold the same blobs: the record is keyed by the trees (liveKey),
// and no index state but the formats' versions can make it stale. It is
// derived: a missing or damaged record is listed again.
const liveFile = "gc-live"

// liveMagic starts the record: its version changes with the format and
// with what a tree's entries count as live (gitindex.GrepReads).
const liveMagic = "bcindex gc-live 1\n"

// liveKey is the key of the live blobs of trees: the hash of the trees,
// sorted and without repeats, and of the versions of the listings and of
// the index (a change of either may change what a listing holds).
func liveKey(trees []plumbing.Hash) [sha256.Size]byte {
	s := slices.Clone(trees)
	slices.SortFunc(s, func(a, b plumbing.Hash) int { return bytes.Compare(a[:], b[:]) })
	h := sha256.New()
	fmt.Fprintf(h, "%s%d\n", gitindex.ListingMagic, store.SchemaVersion)
	for _, t := range slices.Compact(s) {
		h.Write(t[:])
	}
	return [sha256.Size]byte(h.Sum(nil))
}

// encodeLive is the record of live under key: magic, key, the count, each
// blob (sorted) and the length and bytes of its path, a CRC-32C of it all.
func encodeLive(key [sha256.Size]byte, live map[plumbing.Hash]string) []byte {
	blobs := make([]plumbing.Hash, 0, len(live))
	for h := range live {
		blobs = append(blobs, h)
	}
	slices.SortFunc(blobs, func(a, b plumbing.Hash) int { return bytes.Compare(a[:], b[:]) })
	buf := append([]byte(liveMagic), key[:]...)
	buf = binary.AppendUvarint(buf, uint64(len(blobs)))
	for _, h := range blobs {
		buf = append(buf, h[:]...)
		buf = binary.AppendUvarint(buf, uint64(len(live[h])))
		buf = append(buf, live[h]...)
	}
	return binary.LittleEndian.AppendUint32(buf, checksum.Sum(buf))
}

// decodeLive reads a record; ok is false when it is damaged or holds
// another key.
func decodeLive(b []byte, key [sha256.Size]byte) (live map[plumbing.Hash]string, ok bool) {
	if len(b) < len(liveMagic)+len(key)+4 {
		return nil, false
	}
	body := b[:len(b)-4]
	if checksum.Sum(body) != binary.LittleEndian.Uint32(b[len(body):]) {
		return nil, false
	}
	rest, ok := bytes.CutPrefix(body, []byte(liveMagic))
	if !ok || !bytes.Equal(rest[:len(key)], key[:]) {
		return nil, false
	}
	rest = rest[len(key):]
	n, k := binary.Uvarint(rest)
	if k <= 0 || n > uint64(len(rest))/21 {
		return nil, false
	}
	rest = rest[k:]
	live = make(map[plumbing.Hash]string, n)
	for range n {
		if len(rest) < 20 {
			return nil, false
		}
		h := plumbing.Hash(rest[:20])
		l, k := binary.Uvarint(rest[20:])
		if k <= 0 || l > uint64(len(rest)-20-k) {
			return nil, false
		}
		live[h] = string(rest[20+k : 20+k+int(l)])
		rest = rest[20+k+int(l):]
	}
	return live, len(rest) == 0
}

// readLive returns the live blobs recorded under key, if any.
func readLive(indexDir string, key [sha256.Size]byte) (map[plumbing.Hash]string, bool) {
	b, err := os.ReadFile(filepath.Join(indexDir, liveFile))
	if err != nil {
		return nil, false
	}
	return decodeLive(b, key)
}

// writeLive records live under key. Best effort: without the record the
// next gc lists the trees again.
func writeLive(indexDir string, key [sha256.Size]byte, live map[plumbing.Hash]string) {
	atomicfile.Cache(filepath.Join(indexDir, liveFile), encodeLive(key, live))
}
