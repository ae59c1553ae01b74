package storewrite

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"

	"github.com/bcindex/bcindex/segment"
)

// Where Badger put a value. Badger does not export it: an Item keeps its
// value pointer in the unexported fields meta (a byte whose bit 1 says the
// value is in the value log) and vptr (a valuePointer struct of three
// uint32s, Fid, Len and Offset, copied as memory). valuePointer reads them
// by reflection, with the layout of verifiedBadger, the version go.mod
// pins; TestValuePointerLayout fails when an upgrade changes the version or
// the layout. A build with another layout still works: placeOf then
// finds the part by its bytes in the newest log files (logReader.find),
// which costs a read of those files instead of nothing. Either way
// checkPlace compares the bytes on disk before a locator names them.

// verifiedBadger is the Badger version whose Item layout valuePointer
// reads.
const verifiedBadger = "v4.9.6"

// errLayout is a value pointer this code cannot read: a Badger other than
// verifiedBadger.
var errLayout = errors.New("badger's value pointer has another layout")

// placeOf returns the log file and offset of part, the value of item (a
// badger.Item's reflect.Value).
func placeOf(item reflect.Value, part []byte, logs *logReader) (uint32, int64, error) {
	fid, n, off, err := valuePointer(item)
	if errors.Is(err, errLayout) {
		fid, start, ferr := logs.find(part)
		if ferr != nil {
			return 0, 0, fmt.Errorf("%w (this build has Badger %s, bcindex reads the layout of %s), and %v; hint: build bcindex with the Badger version its go.mod pins", err, badgerVersion(), verifiedBadger, ferr)
		}
		return fid, start, nil
	}
	if err != nil {
		return 0, 0, err
	}
	// An entry is header, key, value and a 4-byte checksum.
	start := int64(off) + int64(n) - 4 - int64(len(part))
	if start < int64(off) {
		return 0, 0, fmt.Errorf("entry of %d bytes cannot hold a value of %d", n, len(part))
	}
	return fid, start, nil
}

// valuePointer reads the file, the length of the entry and the entry's
// offset from item, a badger.Item's reflect.Value.
func valuePointer(item reflect.Value) (fid, length, off uint32, err error) {
	const bitValuePointer = 1 << 1
	meta, vptr := item.FieldByName("meta"), item.FieldByName("vptr")
	if !meta.IsValid() || meta.Kind() != reflect.Uint8 || !vptr.IsValid() || vptr.Kind() != reflect.Slice || vptr.Type().Elem().Kind() != reflect.Uint8 {
		return 0, 0, 0, errLayout
	}
	if meta.Uint()&bitValuePointer == 0 {
		return 0, 0, 0, errors.New("the value is not in the value log")
	}
	if vptr.Len() != 12 {
		return 0, 0, 0, errLayout
	}
	b := vptr.Bytes()
	e := binary.NativeEndian
	return e.Uint32(b[0:]), e.Uint32(b[4:]), e.Uint32(b[8:]), nil
}

// badgerVersion is the Badger module version this binary was built with.
func badgerVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, m := range bi.Deps {
			if m.Path == "github.com/dgraph-io/badger/v4" {
				if m.Replace != nil {
					return m.Replace.Version
				}
				return m.Version
			}
		}
	}
	return "(unknown)"
}

// logReader finds values by their bytes in a database's log files, newest
// first, keeping the last file it read: consecutive parts of a batch lie
// in the same file or the next.
type logReader struct {
	dir  string // the index directory
	fid  uint32
	data []byte
}

// find returns the file and offset of the newest copy of part: a value
// just written (or rewritten by gc) is the last copy in the log, since
// Badger only appends.
func (r *logReader) find(part []byte) (uint32, int64, error) {
	fids, err := r.fids()
	if err != nil {
		return 0, 0, err
	}
	for _, fid := range fids {
		if r.data == nil || r.fid != fid {
			b, err := os.ReadFile(segment.VlogPath(r.dir, fid))
			if err != nil {
				return 0, 0, fmt.Errorf("read value log: %w", err)
			}
			r.fid, r.data = fid, b
		}
		// The part's header holds its body's checksum: a match of the
		// first 64 bytes is nearly always the part, and is then compared
		// whole.
		head := part[:min(64, len(part))]
		for data := r.data; ; {
			i := bytes.LastIndex(data, head)
			if i < 0 {
				break
			}
			if bytes.HasPrefix(r.data[i:], part) {
				return fid, int64(i), nil
			}
			data = r.data[:i+len(head)-1]
		}
	}
	return 0, 0, errors.New("no value log file holds the part")
}

// fids lists the log files, newest first.
func (r *logReader) fids() ([]uint32, error) {
	names, err := filepath.Glob(filepath.Join(r.dir, "db", "*.vlog"))
	if err != nil {
		return nil, fmt.Errorf("list value log files: %w", err)
	}
	var fids []uint32
	for _, n := range names {
		if id, err := strconv.ParseUint(strings.TrimSuffix(filepath.Base(n), ".vlog"), 10, 32); err == nil {
			fids = append(fids, uint32(id))
		}
	}
	slices.Sort(fids)
	slices.Reverse(fids)
	return fids, nil
}
