package segment

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/bcindex/bcindex/internal/atomicfile"
	"github.com/bcindex/bcindex/internal/checksum"
	"github.com/bcindex/bcindex/vector"
)

// A segment's locator file (named by VectorFileName) says where its
// vectors of one model are in Badger's value log (little endian):
//
//	magic "BCVLOC01", dim u32, parts u32, rows u64
//	per part: log file u32, zero u32, offset u64, length u64
//	CRC-32C of everything before it, u32
//
// It is a few dozen bytes: the vectors themselves are only in Badger.
const locMagic = "BCVLOC01"

// ErrLogGone wraps fs.ErrNotExist for a locator whose log file is gone:
// value-log garbage collection removed it after pointing the locator
// elsewhere, so reading the locator again finds the vectors.
var ErrLogGone = fmt.Errorf("vector log file gone: %w", fs.ErrNotExist)

// WriteLocator writes a segment's locator for the named vector file.
func WriteLocator(segDir, name string, dim, rows int, locs []PartLoc) error {
	b := make([]byte, 0, 24+24*len(locs)+4)
	b = append(b, locMagic...)
	le := binary.LittleEndian
	b = le.AppendUint32(b, uint32(dim))
	b = le.AppendUint32(b, uint32(len(locs)))
	b = le.AppendUint64(b, uint64(rows))
	for _, l := range locs {
		b = le.AppendUint32(b, l.Fid)
		b = le.AppendUint32(b, 0)
		b = le.AppendUint64(b, uint64(l.Off))
		b = le.AppendUint64(b, uint64(l.Len))
	}
	b = le.AppendUint32(b, checksum.Sum(b))
	if err := atomicfile.Write(filepath.Join(segDir, name), b); err != nil {
		return fmt.Errorf("write vector locator: %w", err)
	}
	return nil
}

// Locator is a decoded locator file.
type Locator struct {
	Dim, Rows int
	Parts     []PartLoc
}

// ReadLocator reads and checks a locator file.
func ReadLocator(path string) (*Locator, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	le := binary.LittleEndian
	if len(b) < 28 || string(b[:8]) != locMagic {
		return nil, errors.New("not a vector locator")
	}
	if got, want := checksum.Sum(b[:len(b)-4]), le.Uint32(b[len(b)-4:]); got != want {
		return nil, fmt.Errorf("vector locator checksum mismatch (stored %08x, computed %08x)", want, got)
	}
	l := &Locator{Dim: int(le.Uint32(b[8:])), Rows: int(le.Uint64(b[16:]))}
	n := int(le.Uint32(b[12:]))
	if len(b) != 28+24*n {
		return nil, fmt.Errorf("vector locator of %d bytes for %d parts", len(b), n)
	}
	for i := 0; i < n; i++ {
		p := b[24+24*i:]
		l.Parts = append(l.Parts, PartLoc{Fid: le.Uint32(p), Off: int64(le.Uint64(p[8:])), Len: int64(le.Uint64(p[16:]))})
	}
	return l, nil
}

// Regions are the places of the locator's parts in the index's value log.
func (l *Locator) Regions(indexDir string) []vector.Region {
	out := make([]vector.Region, len(l.Parts))
	for i, p := range l.Parts {
		out[i] = vector.Region{Path: VlogPath(indexDir, p.Fid), Off: p.Off, Len: p.Len}
	}
	return out
}

// openVectors maps the vectors a segment's locator names; a missing locator
// is fs.ErrNotExist (the segment has no vectors of that model), a missing
// log file ErrLogGone. Each part is verified the first time each version of
// its log file is mapped (verified.go).
func openVectors(indexDir, segDir, name string, st *stamps) (*vector.Segment, error) {
	l, err := ReadLocator(filepath.Join(segDir, name))
	if err != nil {
		return nil, err
	}
	regions := l.Regions(indexDir)
	for _, r := range regions {
		if _, err := os.Stat(r.Path); errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("%s: %w", filepath.Base(r.Path), ErrLogGone)
		}
	}
	v, err := vector.OpenRegions(regions)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%v: %w", err, ErrLogGone)
	}
	if err != nil {
		return nil, err
	}
	if v.Len() != l.Rows || v.Dim() != l.Dim {
		v.Close()
		return nil, fmt.Errorf("vectors hold %d rows of dimension %d, the locator says %d of %d", v.Len(), v.Dim(), l.Rows, l.Dim)
	}
	for i, r := range regions {
		key := partStampKey(name, i)
		id := regionIdentity(r)
		if st.verifiedAs(key, id) {
			continue
		}
		if err := v.VerifyPart(i); err != nil {
			v.Close()
			return nil, err
		}
		st.passedAs(key, id)
	}
	return v, nil
}

// regionIdentity names one version of a part: its log file's identity and
// its place in it.
func regionIdentity(r vector.Region) string {
	id := fileIdentity(r.Path)
	if id == "" {
		return ""
	}
	return fmt.Sprintf("%s@%d+%d", id, r.Off, r.Len)
}

// OpenSegmentVectors maps a segment's vectors of the named vector file, as
// a query does (verifying each part once per version of its log file): the
// stored vectors, one per distinct content, whose rows MapRows maps to the
// table's (Table.VectorIndex).
func OpenSegmentVectors(indexDir, id, name string) (*vector.Segment, error) {
	dir := Dir(indexDir, id)
	st := loadStamps(dir)
	defer st.save()
	v, err := openVectors(indexDir, dir, name, st)
	if err != nil {
		return nil, fmt.Errorf("open vectors of segment %s: %w", id, err)
	}
	return v, nil
}

// PartLoc is where one vector part lies in Badger's value log.
type PartLoc struct {
	Fid      uint32 // the log file, <db>/<fid as %06d>.vlog
	Off, Len int64  // the part's bytes (without padding) in that file
}

// VlogPath is the path of a Badger value log file.
func VlogPath(indexDir string, fid uint32) string {
	return filepath.Join(indexDir, "db", fmt.Sprintf("%06d.vlog", fid))
}
