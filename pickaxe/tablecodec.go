package pickaxe

import (
	"encoding/binary"
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"

	"github.com/bcindex/bcindex/gitindex"
)

// The commits of a segment of format 2 ("bcxchg2\n", see table.go) share
// tables of the strings they repeat, and a change's old blob is most often
// the new blob of the path's previous change:
//
//	authors   uvarint count, then each (uvarint length and bytes), in
//	          order of first use
//	paths     uvarint count, then the sorted paths, each as the length of
//	          the prefix it shares with the one before it, then the rest
//	          (uvarint length and bytes)
//	modes     uvarint count, then each mode (uvarint), in order of first use
//	count     uvarint, then that many commits, oldest first:
//	  hash, tree          20 bytes each
//	  author time         Unix seconds, zone offset in seconds: zigzag uvarints
//	  author              index in authors (uvarint)
//	  subject             uvarint length and bytes
//	  changes             uvarint count, then for each: its path's index in
//	                      paths, then (from mode·len(modes) + to mode)·8 +
//	                      4 when the new object is absent + how the old one
//	                      is given (0: absent, 1: the new object of the
//	                      path's previous change in the segment, 2: the 20
//	                      bytes that follow), then the new object's 20
//	                      bytes unless absent
//
// On git's last 1,035 first-parent commits a segment takes 39 bytes a
// change, its commits included, where format 1 took 80 (a path of about
// 25 bytes, two objects, two modes of three bytes each).
const (
	fromAbsent   = 0
	fromPrevious = 1
	fromStored   = 2
	toAbsent     = 4
)

// encodeCommits appends the tables and the commits of s in format 2.
func encodeCommits(buf []byte, s *segment) []byte {
	authors, paths, modes := map[string]int{}, map[string]int{}, map[filemode.FileMode]int{}
	var authorList, pathList []string
	var modeList []filemode.FileMode
	for _, c := range s.commits {
		if _, ok := authors[c.Author]; !ok {
			authors[c.Author] = len(authorList)
			authorList = append(authorList, c.Author)
		}
		for _, ch := range c.Changes {
			if _, ok := paths[ch.Path]; !ok {
				paths[ch.Path] = 0
				pathList = append(pathList, ch.Path)
			}
			for _, m := range []filemode.FileMode{ch.FromMode, ch.ToMode} {
				if _, ok := modes[m]; !ok {
					modes[m] = len(modeList)
					modeList = append(modeList, m)
				}
			}
		}
	}
	buf = binary.AppendUvarint(buf, uint64(len(authorList)))
	for _, a := range authorList {
		buf = appendString(buf, a)
	}
	slices.Sort(pathList)
	buf = binary.AppendUvarint(buf, uint64(len(pathList)))
	prev := ""
	for i, p := range pathList {
		paths[p] = i
		n := commonPrefix(prev, p)
		buf = binary.AppendUvarint(buf, uint64(n))
		buf = appendString(buf, p[n:])
		prev = p
	}
	buf = binary.AppendUvarint(buf, uint64(len(modeList)))
	for _, m := range modeList {
		buf = binary.AppendUvarint(buf, uint64(m))
	}
	last := make([]plumbing.Hash, len(pathList)) // each path's last new object
	buf = binary.AppendUvarint(buf, uint64(len(s.commits)))
	for _, c := range s.commits {
		buf = append(buf, c.Hash[:]...)
		buf = append(buf, c.Tree[:]...)
		_, off := c.When.Zone()
		buf = binary.AppendUvarint(buf, zigzag(c.When.Unix()))
		buf = binary.AppendUvarint(buf, zigzag(int64(off)))
		buf = binary.AppendUvarint(buf, uint64(authors[c.Author]))
		buf = appendString(buf, c.Subject)
		buf = binary.AppendUvarint(buf, uint64(len(c.Changes)))
		for _, ch := range c.Changes {
			p := paths[ch.Path]
			kind := uint64(modes[ch.FromMode]*len(modeList)+modes[ch.ToMode]) << 3
			switch {
			case ch.From.IsZero():
				kind |= fromAbsent
			case ch.From == last[p]:
				kind |= fromPrevious
			default:
				kind |= fromStored
			}
			if ch.To.IsZero() {
				kind |= toAbsent
			}
			buf = binary.AppendUvarint(buf, uint64(p))
			buf = binary.AppendUvarint(buf, kind)
			if kind&3 == fromStored {
				buf = append(buf, ch.From[:]...)
			}
			if kind&toAbsent == 0 {
				buf = append(buf, ch.To[:]...)
			}
			last[p] = ch.To
		}
	}
	return buf
}

func commonPrefix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

var errBadTables = errors.New("bad table reference")

// decodeCommits reads the tables and the commits of a format 2 segment
// into s; a reference out of its table is errBadTables.
func decodeCommits(d *segmentDecoder, s *segment) error {
	authors := make([]string, d.count())
	for i := range authors {
		authors[i] = d.string()
	}
	paths := make([]string, d.count())
	var sb strings.Builder
	prev := ""
	for i := range paths {
		n := d.Uint()
		if n > uint64(len(prev)) {
			return errBadTables
		}
		sb.Reset()
		sb.WriteString(prev[:n])
		sb.WriteString(d.string())
		paths[i], prev = sb.String(), sb.String()
	}
	modes := make([]filemode.FileMode, d.count())
	for i := range modes {
		modes[i] = filemode.FileMode(d.Uint())
	}
	last := make([]plumbing.Hash, len(paths))
	n := d.Uint()
	for i := uint64(0); i < n && d.Err == nil; i++ {
		c := Commit{Hash: d.hash(), Tree: d.hash()}
		sec, off := unzigzag(d.Uint()), unzigzag(d.Uint())
		c.When = time.Unix(sec, 0).In(time.FixedZone("", int(off)))
		a := d.Uint()
		if a >= uint64(len(authors)) {
			return errBadTables
		}
		c.Author, c.Subject = authors[a], d.string()
		m := d.Uint()
		for j := uint64(0); j < m && d.Err == nil; j++ {
			p, kind := d.Uint(), d.Uint()
			ms := kind >> 3
			if p >= uint64(len(paths)) || ms >= uint64(len(modes)*len(modes)) || kind&3 > fromStored {
				return errBadTables
			}
			ch := gitindex.FileChange{Path: paths[p], FromMode: modes[ms/uint64(len(modes))], ToMode: modes[ms%uint64(len(modes))]}
			switch kind & 3 {
			case fromPrevious:
				ch.From = last[p]
			case fromStored:
				ch.From = d.hash()
			}
			if kind&toAbsent == 0 {
				ch.To = d.hash()
			}
			last[p] = ch.To
			c.Changes = append(c.Changes, ch)
		}
		s.commits = append(s.commits, c)
	}
	return nil
}

// count reads the length of a table, each of whose entries takes a byte
// or more: a longer one than the bytes left sets Err.
func (d *segmentDecoder) count() int {
	n := d.Uint()
	if n > uint64(len(d.Buf)) {
		d.Bytes(-1) // sets Err
		return 0
	}
	return int(n)
}
