package pickaxe

import (
	"encoding/binary"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"

	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/internal/cache"
	"github.com/bcindex/bcindex/internal/checksum"
	segfmt "github.com/bcindex/bcindex/segment" // the index's varint records
)

// The change table caches, for each first-parent commit, the paths it
// changed against its first parent with their old and new blobs, so that a
// query diffs no trees. It is stored as segments under IndexDir/changes,
// one file per segment, named by the newest commit it holds:
//
//	magic   "bcxchg2\n"
//	base    20 bytes: the commit just before the segment's oldest, whose
//	        own segment holds the older history; zero when the segment
//	        reaches the root (or a shallow clone's boundary)
//	commits the tables of authors, paths and modes, then the commits,
//	        oldest first (tablecodec.go)
//	crc     CRC-32C of everything before it, little-endian
//
// Format 1 ("bcxchg1\n") is still read. Its commits follow the base as a
// uvarint count, then per commit:
//
//	hash, tree          20 bytes each
//	author time         Unix seconds, zone offset in seconds: zigzag uvarints
//	author, subject     uvarint length and bytes each
//	changes             uvarint count, then for each: path (uvarint
//	                    length and bytes), old and new object (20 bytes
//	                    each, zero when absent), old and new mode (uvarint)
//
// Everything in it is derived from git, so a segment that fails its checksum
// is deleted and built again.
const (
	tableMagic   = "bcxchg2\n"
	tableMagicV1 = "bcxchg1\n"
)

// Commit is one first-parent commit and the paths it changed.
type Commit struct {
	Hash, Tree plumbing.Hash
	When       time.Time // author date
	Author     string
	Subject    string
	Changes    []gitindex.FileChange

	diffs   *diffsFile // the records of Changes; nil when there are none
	change0 int        // the index of Changes[0] in diffs
}

// segment is one file of the change table.
type segment struct {
	base    plumbing.Hash
	commits []Commit
	diffs   *diffsFile // the records of the commits' changes, if any
}

// segmentName is the cache entry (under the index directory) of the
// segment whose newest commit is newest.
func segmentName(newest plumbing.Hash) string {
	s := newest.String()
	return filepath.Join("changes", s[:2], s[2:])
}

func segmentPath(indexDir string, newest plumbing.Hash) string {
	return cache.Dir(indexDir).Path(segmentName(newest))
}

// writeSegment writes s through the cache API: false when another writer
// holds the entry's lock and nothing was written.
func writeSegment(indexDir string, s *segment) (bool, error) {
	return writeSegmentFile(cache.Dir(indexDir), segmentName(s.commits[len(s.commits)-1].Hash), s)
}

// writeSegmentFile writes s as the cache entry name.
func writeSegmentFile(d cache.Dir, name string, s *segment) (bool, error) {
	buf := append([]byte(tableMagic), s.base[:]...)
	buf = encodeCommits(buf, s)
	buf = binary.LittleEndian.AppendUint32(buf, checksum.Sum(buf))
	return d.Put(name, buf)
}

func appendString(buf []byte, s string) []byte {
	buf = binary.AppendUvarint(buf, uint64(len(s)))
	return append(buf, s...)
}

var errBadSegment = errors.New("malformed change table segment")

// readSegment reads the segment whose newest commit is newest; a missing
// file is os.ErrNotExist, a damaged one errBadSegment.
func readSegment(indexDir string, newest plumbing.Hash) (*segment, error) {
	return readSegmentFile(cache.Dir(indexDir), segmentName(newest), newest)
}

// readSegmentFile reads the cache entry name, the segment whose newest
// commit is newest, checking it as it decodes.
func readSegmentFile(d cache.Dir, name string, newest plumbing.Hash) (*segment, error) {
	var s *segment
	_, err := d.Get(name, func(b []byte) (err error) {
		s, err = decodeSegment(b, newest)
		return err
	})
	if err != nil {
		return nil, err
	}
	return s, nil
}

// decodeSegment checks and decodes a segment's bytes.
func decodeSegment(b []byte, newest plumbing.Hash) (*segment, error) {
	v1 := len(b) >= len(tableMagicV1) && string(b[:len(tableMagicV1)]) == tableMagicV1
	if len(b) < len(tableMagic)+20+4 || string(b[:len(tableMagic)]) != tableMagic && !v1 {
		return nil, fmt.Errorf("change table %s: %w", newest, errBadSegment)
	}
	body, sum := b[:len(b)-4], binary.LittleEndian.Uint32(b[len(b)-4:])
	if checksum.Sum(body) != sum {
		return nil, fmt.Errorf("change table %s: checksum mismatch: %w", newest, errBadSegment)
	}
	d := &segmentDecoder{segfmt.Decoder{Buf: body[len(tableMagic):]}}
	s := &segment{base: d.hash()}
	if v1 {
		decodeCommitsV1(d, s)
	} else if err := decodeCommits(d, s); err != nil {
		return nil, fmt.Errorf("change table %s: %w: %v", newest, errBadSegment, err)
	}
	if d.Err != nil || len(d.Buf) != 0 || len(s.commits) == 0 || s.commits[len(s.commits)-1].Hash != newest {
		return nil, fmt.Errorf("change table %s: %w", newest, errBadSegment)
	}
	return s, nil
}

// decodeCommitsV1 reads the commits of a format 1 segment into s.
func decodeCommitsV1(d *segmentDecoder, s *segment) {
	n := d.Uint()
	for i := uint64(0); i < n && d.Err == nil; i++ {
		c := Commit{Hash: d.hash(), Tree: d.hash()}
		sec, off := unzigzag(d.Uint()), unzigzag(d.Uint())
		c.When = time.Unix(sec, 0).In(time.FixedZone("", int(off)))
		c.Author, c.Subject = d.string(), d.string()
		m := d.Uint()
		for j := uint64(0); j < m && d.Err == nil; j++ {
			ch := gitindex.FileChange{Path: d.string(), From: d.hash(), To: d.hash()}
			ch.FromMode, ch.ToMode = filemode.FileMode(d.Uint()), filemode.FileMode(d.Uint())
			c.Changes = append(c.Changes, ch)
		}
		s.commits = append(s.commits, c)
	}
}

// zigzag maps a signed value to an unsigned one that stays short when the
// value is near zero, as protocol buffers do.
func zigzag(v int64) uint64 { return uint64(v<<1) ^ uint64(v>>63) }

func unzigzag(u uint64) int64 { return int64(u>>1) ^ -int64(u&1) }

// segmentDecoder reads the fields of a segment; the first short read sets
// Err and every later read returns zero values.
type segmentDecoder struct{ segfmt.Decoder }

func (d *segmentDecoder) hash() (h plumbing.Hash) {
	copy(h[:], d.Bytes(len(h)))
	return h
}

func (d *segmentDecoder) string() string {
	return string(d.Bytes(int(min(d.Uint(), uint64(len(d.Buf)+1)))))
}
