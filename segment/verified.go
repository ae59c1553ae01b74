package segment

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/bcindex/bcindex/internal/atomicfile"
	"github.com/bcindex/bcindex/vector"
)

// A segment's files are verified against their checksums when they are
// mapped, the first time each version of a file is: reading every byte of
// every segment on every query would cost more than the query. The
// segment's "verified" file records, per file, the identity of the version
// that passed (device, inode, size, modification and change times); a file
// written to since (a flipped byte, a truncation, a copy) has another
// identity and is verified again. Damage that leaves the file's metadata
// alone (bad sectors) is found by `git bcindex check`, which reads
// everything. On a read-only .git the record cannot be written and every
// open verifies.
const verifiedFile = "verified"

// stampsMu serialises this process's updates of a segment's record: the
// indexer records a segment's files and, once its database is closed, its
// vector parts, from two goroutines.
var stampsMu sync.Mutex

// stamps is a segment's record of verified file versions.
type stamps struct {
	dir   string
	ids   map[string]string // file name → identity that passed
	dirty bool
}

func loadStamps(segDir string) *stamps {
	s := &stamps{dir: segDir, ids: map[string]string{}}
	b, err := os.ReadFile(filepath.Join(segDir, verifiedFile))
	if err != nil {
		return s
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		if name, id, ok := strings.Cut(sc.Text(), "\t"); ok {
			s.ids[name] = id
		}
	}
	return s
}

// FileIdentity names the version of the file at p as the record of
// verified versions does ("" when it cannot be read): a file written to
// or replaced since has another. A reader that keeps segments mapped
// compares it to see that they are still the files it verified.
func FileIdentity(p string) string { return fileIdentity(p) }

// verified reports whether this version of the file passed before.
func (s *stamps) verified(name string) bool {
	id := fileIdentity(filepath.Join(s.dir, name))
	return id != "" && s.ids[name] == id
}

// passed records that the file's current version passed.
func (s *stamps) passed(name string) {
	s.passedAs(name, fileIdentity(filepath.Join(s.dir, name)))
}

// verifiedAs reports whether what key names passed as the version id (a
// vector part, identified by its log file's identity and place).
func (s *stamps) verifiedAs(key, id string) bool { return id != "" && s.ids[key] == id }

// passedAs records that what key names passed as the version id.
func (s *stamps) passedAs(key, id string) {
	if id != "" && s.ids[key] != id {
		s.ids[key] = id
		s.dirty = true
	}
}

// save writes the record when it changed, best effort: a reader on a
// read-only repository verifies again next time.
func (s *stamps) save() {
	if !s.dirty {
		return
	}
	var b strings.Builder
	for name, id := range s.ids {
		fmt.Fprintf(&b, "%s\t%s\n", name, id)
	}
	atomicfile.Cache(filepath.Join(s.dir, verifiedFile), []byte(b.String()))
}

// RecordWritten records the named files of a segment the indexer has just
// written as verified: their checksums were computed from the bytes
// written, so only a later change to a file (which gives it another
// identity) calls for reading it again. Without this the first open after
// every index run read the whole segment once more.
func RecordWritten(segDir string, names ...string) {
	stampsMu.Lock()
	defer stampsMu.Unlock()
	s := loadStamps(segDir)
	for _, n := range names {
		s.passed(n)
	}
	s.save()
}

// RecordParts records the regions of a segment's named vector file (in
// locator order) as verified: the store wrote them and their checksums
// came from the bytes written.
func RecordParts(segDir, name string, regions []vector.Region) {
	stampsMu.Lock()
	defer stampsMu.Unlock()
	st := loadStamps(segDir)
	for i, r := range regions {
		st.passedAs(partStampKey(name, i), regionIdentity(r))
	}
	st.save()
}

// partStampKey names part i of a segment's named vector file in the
// segment's record of verified versions.
func partStampKey(name string, i int) string { return fmt.Sprintf("%s#%d", name, i) }

// VerifyOnce runs check on each named file of dir, asking it to verify
// every byte (verify) when full or when this version of the file has not
// passed before, and records the versions that pass: the record segments
// keep, for other immutable files (the database's tables).
func VerifyOnce(dir string, names []string, full bool, check func(i int, verify bool) error) error {
	stampsMu.Lock()
	defer stampsMu.Unlock()
	st := loadStamps(dir)
	defer st.save()
	for i, name := range names {
		verify := full || !st.verified(name)
		if err := check(i, verify); err != nil {
			return err
		}
		if verify {
			st.passed(name)
		}
	}
	return nil
}
