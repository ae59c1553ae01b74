package pickaxe

import (
	"context"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/bcindex/bcindex/internal/checksum"
)

// encodeSegmentV1 is s as format 1's writer wrote it.
func encodeSegmentV1(s *segment) []byte {
	buf := append([]byte(tableMagicV1), s.base[:]...)
	buf = binary.AppendUvarint(buf, uint64(len(s.commits)))
	for _, c := range s.commits {
		buf = append(buf, c.Hash[:]...)
		buf = append(buf, c.Tree[:]...)
		_, off := c.When.Zone()
		buf = binary.AppendUvarint(buf, zigzag(c.When.Unix()))
		buf = binary.AppendUvarint(buf, zigzag(int64(off)))
		buf = appendString(buf, c.Author)
		buf = appendString(buf, c.Subject)
		buf = binary.AppendUvarint(buf, uint64(len(c.Changes)))
		for _, ch := range c.Changes {
			buf = appendString(buf, ch.Path)
			buf = append(buf, ch.From[:]...)
			buf = append(buf, ch.To[:]...)
			buf = binary.AppendUvarint(buf, uint64(ch.FromMode))
			buf = binary.AppendUvarint(buf, uint64(ch.ToMode))
		}
	}
	return binary.LittleEndian.AppendUint32(buf, checksum.Sum(buf))
}

// prefixRepo builds a history whose paths share prefixes, one path a
// prefix of another, a file deleted and added again with its old content,
// a change undone, a file that becomes a symlink, and a commit by
// another author in another time zone.
func prefixRepo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	git(t, dir, "init", "-q", "-b", "main")
	git(t, dir, "config", "user.email", "a@example.com")
	git(t, dir, "config", "user.name", "Ann")
	write := func(name, content string) {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	commit := func(msg string, env ...string) {
		git(t, dir, "add", "-A")
		args := append([]string{}, env...)
		git(t, dir, append(args, "commit", "-q", "--allow-empty", "-m", msg)...)
	}
	write("doc/a.txt", "needle one\n")
	write("doc/ab.txt", "two\n")
	write("doc/a.txt.orig", "three\n")
	commit("first")
	write("doc/a.txt", "needle one\nneedle two\n")
	commit("second", "-c", "user.name=Björn Ünder")
	if err := os.Remove(filepath.Join(dir, "doc/ab.txt")); err != nil {
		t.Fatal(err)
	}
	commit("delete ab")
	write("doc/ab.txt", "two\n")
	write("doc/a.txt", "needle one\n") // undone
	commit("back again")
	if err := os.Remove(filepath.Join(dir, "doc/a.txt.orig")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("a.txt", filepath.Join(dir, "doc/a.txt.orig")); err != nil {
		t.Fatal(err)
	}
	commit("a link")
	git(t, dir, "commit", "-q", "--allow-empty", "-m", "empty", "--date", "2001-02-03T04:05:06+05:30")
	return dir
}

// TestTableFormatsReadBack checks that the table read back from a
// segment is the one listed from git, in format 2 and in format 1, which
// is still read as it is (not built again).
func TestTableFormatsReadBack(t *testing.T) {
	for name, dir := range map[string]string{"synthetic": syntheticRepo(t), "prefixes": prefixRepo(t)} {
		repo, tip, listed := openHistory(t, dir, "HEAD")
		p := segmentPath(repo.IndexDir, tip.Hash)
		b, err := os.ReadFile(p)
		if err != nil || string(b[:len(tableMagic)]) != tableMagic {
			t.Fatalf("%s: the segment is not of format 2 (%v)", name, err)
		}
		v1 := encodeSegmentV1(&segment{commits: listed})
		if len(b) >= len(v1) {
			t.Errorf("%s: format 2 takes %d bytes, format 1 %d", name, len(b), len(v1))
		}
		for _, format := range []string{"2", "1"} {
			if format == "1" {
				if err := os.WriteFile(p, v1, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			read, err := History(context.Background(), repo, tip.Hash, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(read) != len(listed) || recorded(read) != len(listed) {
				t.Fatalf("%s, format %s: %d commits read, %d with records; %d listed", name, format, len(read), recorded(read), len(listed))
			}
			for i := range read {
				a, b := read[i], listed[i]
				_, za := a.When.Zone()
				_, zb := b.When.Zone()
				if a.Hash != b.Hash || a.Tree != b.Tree || !a.When.Equal(b.When) || za != zb || a.Author != b.Author ||
					a.Subject != b.Subject || len(a.Changes)+len(b.Changes) > 0 && !reflect.DeepEqual(a.Changes, b.Changes) {
					t.Errorf("%s, format %s: commit %d reads back as\n%+v\nwant\n%+v", name, format, i, a, b)
				}
			}
			for _, tc := range []oracleCase{sCase("needle"), gCase("needle"), sCase("Alpha"), gCase("Beta")} {
				againstGit(t, repo, read, "HEAD", tc)
			}
		}
		if b, err := os.ReadFile(p); err != nil || string(b[:len(tableMagicV1)]) != tableMagicV1 {
			t.Errorf("%s: the format 1 segment was written again (%v)", name, err)
		}
	}
}

// TestTableDamageDetected checks that a segment with any byte changed,
// or with a reference out of its tables under a good checksum, is
// refused.
func TestTableDamageDetected(t *testing.T) {
	repo, tip, _ := openHistory(t, prefixRepo(t), "HEAD")
	p := segmentPath(repo.IndexDir, tip.Hash)
	good, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := decodeSegment(good, tip.Hash); err != nil {
		t.Fatal(err)
	}
	for i := range good {
		b := append([]byte(nil), good...)
		b[i] ^= 0x20
		if _, err := decodeSegment(b, tip.Hash); !errors.Is(err, errBadSegment) {
			t.Fatalf("byte %d of %d changed: %v, want errBadSegment", i, len(good), err)
		}
	}
	// One commit whose change names path 0 of an empty table.
	body := append([]byte(tableMagic), make([]byte, 20)...)
	body = append(body, 0, 0, 0, 1)             // no authors, paths, modes; one commit
	body = append(body, tip.Hash[:]...)         // hash
	body = append(body, make([]byte, 20)...)    // tree
	body = append(body, 0, 0, 0, 0, 1, 0, 0<<3) // time, zone, author 0, subject, one change: path 0, kind
	body = binary.LittleEndian.AppendUint32(body, checksum.Sum(body))
	if _, err := decodeSegment(body, tip.Hash); !errors.Is(err, errBadSegment) {
		t.Errorf("a reference out of the tables: %v, want errBadSegment", err)
	}
}
