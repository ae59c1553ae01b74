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
//	magic "BCVLOC02", dim u32, parts u32, rows u64, slots u64
//	per part: log file u32, rows u32, offset u64, length u64,
//	  part number u32, owner length u8, owner (a segment ID)
//	slots × u32
//	CRC-32C of everything before it, u32
//
// A part is the value of Badger's key "s/<owner>/<file name>/<part
// number>": the segment's own parts come first, then parts of other
// segments whose vectors it shares (a content another segment stores is
// not stored again). Each part's first vector is the first multiple of 64
// at or after the end of the part before (package vector's OpenRegions).
// rows is how many distinct contents the segment has (Table.VectorIndex);
// slots, when there are any (rows of them), are where each one's vector
// is among the parts' vectors; without, the i-th is the i-th vector.
// It is small: the vectors themselves are only in Badger.
const locMagic = "BCVLOC02"

// ErrLogGone wraps fs.ErrNotExist for a locator whose log file is gone:
// value-log garbage collection removed it after pointing the locator
// elsewhere, so reading the locator again finds the vectors.
var ErrLogGone = fmt.Errorf("vector log file gone: %w", fs.ErrNotExist)

// WriteLocator writes a segment's locator for the named vector file.
func WriteLocator(segDir, name string, l *Locator) error {
	b := make([]byte, 0, 32+40*len(l.Parts)+4*len(l.Slots)+4)
	b = append(b, locMagic...)
	le := binary.LittleEndian
	b = le.AppendUint32(b, uint32(l.Dim))
	b = le.AppendUint32(b, uint32(len(l.Parts)))
	b = le.AppendUint64(b, uint64(l.Rows))
	b = le.AppendUint64(b, uint64(len(l.Slots)))
	for _, p := range l.Parts {
		if len(p.Owner) > 255 {
			return fmt.Errorf("write vector locator: owner %q too long", p.Owner)
		}
		b = le.AppendUint32(b, p.Fid)
		b = le.AppendUint32(b, uint32(p.Rows))
		b = le.AppendUint64(b, uint64(p.Off))
		b = le.AppendUint64(b, uint64(p.Len))
		b = le.AppendUint32(b, uint32(p.Part))
		b = append(b, byte(len(p.Owner)))
		b = append(b, p.Owner...)
	}
	for _, s := range l.Slots {
		b = le.AppendUint32(b, s)
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
	// Slots, when not nil, hold for each of the segment's Rows distinct
	// contents where its vector is among the parts' vectors (Stored).
	Slots []uint32
}

// Stored is how many vectors the parts hold, with the gaps between parts
// (package vector's OpenRegions): the stored rows a search scans.
func (l *Locator) Stored() int {
	n := 0
	for _, p := range l.Parts {
		n = (n+63)&^63 + p.Rows
	}
	return n
}

// ReadLocator reads and checks a locator file.
func ReadLocator(path string) (*Locator, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	le := binary.LittleEndian
	if len(b) < 36 || string(b[:8]) != locMagic {
		return nil, errors.New("not a vector locator")
	}
	if got, want := checksum.Sum(b[:len(b)-4]), le.Uint32(b[len(b)-4:]); got != want {
		return nil, fmt.Errorf("vector locator checksum mismatch (stored %08x, computed %08x)", want, got)
	}
	l := &Locator{Dim: int(le.Uint32(b[8:])), Rows: int(le.Uint64(b[16:]))}
	n, slots := uint64(le.Uint32(b[12:])), le.Uint64(b[24:])
	rest := b[32 : len(b)-4]
	bad := func() (*Locator, error) {
		return nil, fmt.Errorf("vector locator of %d bytes for %d parts and %d slots", len(b), n, slots)
	}
	if n > uint64(len(rest))/29 || slots > uint64(len(rest))/4 {
		return bad()
	}
	for i := uint64(0); i < n; i++ {
		if len(rest) < 29 || len(rest) < 29+int(rest[28]) {
			return bad()
		}
		p := PartLoc{Fid: le.Uint32(rest), Rows: int(le.Uint32(rest[4:])), Off: int64(le.Uint64(rest[8:])),
			Len: int64(le.Uint64(rest[16:])), Part: int(le.Uint32(rest[24:])), Owner: string(rest[29 : 29+int(rest[28])])}
		l.Parts = append(l.Parts, p)
		rest = rest[29+len(p.Owner):]
	}
	if uint64(len(rest)) != 4*slots {
		return bad()
	}
	if slots > 0 {
		if int(slots) != l.Rows {
			return nil, fmt.Errorf("vector locator has %d slots for %d contents", slots, l.Rows)
		}
		l.Slots = make([]uint32, slots)
		for i := range l.Slots {
			l.Slots[i] = le.Uint32(rest[4*i:])
		}
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
func openVectors(indexDir, segDir, name string, st *stamps) (*vector.Segment, *Locator, error) {
	l, err := ReadLocator(filepath.Join(segDir, name))
	if err != nil {
		return nil, nil, err
	}
	v, err := openLocated(indexDir, name, l, st)
	return v, l, err
}

// openLocated maps the parts locator l of the named vector file names.
func openLocated(indexDir, name string, l *Locator, st *stamps) (*vector.Segment, error) {
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
	if err := checkLocated(v, l); err != nil {
		v.Close()
		return nil, err
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
// stored vectors, which MapRows maps to the table's rows (Table.VectorIndex
// and the locator's slots).
func OpenSegmentVectors(indexDir, id, name string) (*vector.Segment, error) {
	return openSegmentVectors(indexDir, id, name, nil)
}

// openSegmentVectors is OpenSegmentVectors, with the rows of table t
// mapped to their vectors (MapRows) unless t is nil.
func openSegmentVectors(indexDir, id, name string, t *Table) (*vector.Segment, error) {
	dir := Dir(indexDir, id)
	st := loadStamps(dir)
	defer st.save()
	v, l, err := openVectors(indexDir, dir, name, st)
	if err == nil && t != nil {
		if err = mapVectors(t, v, l); err != nil {
			v.Close()
		}
	}
	if err != nil {
		return nil, fmt.Errorf("open vectors of segment %s: %w", id, err)
	}
	return v, nil
}

// checkLocated checks that the mapped parts are those l describes.
func checkLocated(v *vector.Segment, l *Locator) error {
	if v.Dim() != l.Dim || v.Parts() != len(l.Parts) {
		return fmt.Errorf("vectors of dimension %d in %d parts, the locator says %d in %d", v.Dim(), v.Parts(), l.Dim, len(l.Parts))
	}
	for i, p := range l.Parts {
		if n := v.PartLen(i); n != p.Rows {
			return fmt.Errorf("vector part %d holds %d rows, the locator says %d", i, n, p.Rows)
		}
	}
	if l.Slots == nil && v.Stored() != l.Rows {
		return fmt.Errorf("vectors hold %d rows, the locator says %d", v.Stored(), l.Rows)
	}
	return nil
}

// PartLoc is where one vector part lies in Badger's value log, and which
// it is.
type PartLoc struct {
	Fid      uint32 // the log file, <db>/<fid as %06d>.vlog
	Off, Len int64  // the part's bytes (without padding) in that file
	Rows     int    // the vectors it holds
	// Owner and Part name the part's key in Badger: part number Part of
	// segment Owner's vectors (a segment that shares another's vectors
	// names that segment).
	Owner string
	Part  int
}

// VlogPath is the path of a Badger value log file.
func VlogPath(indexDir string, fid uint32) string {
	return filepath.Join(indexDir, "db", fmt.Sprintf("%06d.vlog", fid))
}
