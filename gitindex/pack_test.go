package gitindex

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/bcindex/bcindex/internal/testkit/gittest"
)

// history commits versions of a few files that git stores as deltas of one
// another: lines appended, changed in the middle, a large file (copies of
// more than 64 KiB) and directories that change with them.
func history(t *testing.T) *gittest.Repo {
	t.Helper()
	r := gittest.New(t)
	var lines []string
	for i := range 400 {
		lines = append(lines, fmt.Sprintf("func f%d() int { return %d }", i, i*i))
	}
	big := strings.Repeat("a line of a large generated table, 0123456789\n", 4000)
	for c := range 12 {
		lines[c*30] = fmt.Sprintf("// changed in commit %d", c)
		lines = append(lines, fmt.Sprintf("func g%d() {}", c))
		files := map[string]string{
			"a.go":           "package a\n\n" + strings.Join(lines, "\n") + "\n",
			"sub/dir/b.go":   "package dir\n\n" + strings.Join(lines[c:c+50], "\n") + "\n",
			"sub/c.txt":      strings.Repeat(fmt.Sprintf("line %d\n", c), 20+c),
			"big/table.txt":  big[:len(big)-c*100] + fmt.Sprintf("end %d\n", c),
			"sub/dir/n.json": fmt.Sprintf("{\"n\": %d}\n", c),
		}
		r.Commit(fmt.Sprintf("commit %d", c), files)
	}
	return r
}

// gitObjects returns every object of the repository with its type, as
// git cat-file reads it.
func gitObjects(t *testing.T, dir string) map[plumbing.Hash]struct {
	typ  string
	body []byte
} {
	t.Helper()
	cmd := exec.Command("git", "-C", dir, "cat-file", "--batch-all-objects", "--batch")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git cat-file: %v", err)
	}
	objs := map[plumbing.Hash]struct {
		typ  string
		body []byte
	}{}
	rd := bufio.NewReader(bytes.NewReader(out))
	for {
		head, err := rd.ReadString('\n')
		if err == io.EOF {
			break
		}
		f := strings.Fields(head)
		if err != nil || len(f) != 3 {
			t.Fatalf("cat-file output: %q %v", head, err)
		}
		n, _ := strconv.Atoi(f[2])
		body := make([]byte, n+1)
		if _, err := io.ReadFull(rd, body); err != nil {
			t.Fatal(err)
		}
		objs[plumbing.NewHash(f[0])] = struct {
			typ  string
			body []byte
		}{f[1], body[:n]}
	}
	return objs
}

// TestPackedObjectsMatchGit reads every object of packs written three
// ways (deltas against offsets, deltas against names, an index with 64-bit
// offsets) and requires git's content for each, deltas included.
func TestPackedObjectsMatchGit(t *testing.T) {
	for _, tc := range []struct {
		name   string
		repack []string
	}{
		{"offset deltas", []string{"repack", "-a", "-d", "-f", "-q", "--depth=50", "--window=50"}},
		{"ref deltas", []string{"-c", "repack.useDeltaBaseOffset=false", "repack", "-a", "-d", "-f", "-q", "--depth=50", "--window=50"}},
		{"64-bit offsets", []string{"repack", "-a", "-d", "-f", "-q"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := history(t)
			r.Git(tc.repack...)
			packs, _ := filepath.Glob(filepath.Join(r.Dir, ".git", "objects", "pack", "*.pack"))
			if len(packs) != 1 {
				t.Fatalf("%d packs, want 1", len(packs))
			}
			want := gitObjects(t, r.Dir)
			if len(want) < 100 {
				t.Fatalf("%d objects", len(want))
			}
			if tc.name == "64-bit offsets" {
				// Every offset in the index's table of 8-byte offsets.
				idx := strings.TrimSuffix(packs[0], ".pack") + ".idx"
				os.Remove(idx)
				r.Git("index-pack", "--index-version=2,0", "-o", idx, packs[0])
			}
			repo, err := OpenRepo(r.Dir)
			if err != nil {
				t.Fatal(err)
			}
			defer repo.Close()
			deltas := 0
			for h, o := range want {
				p, off, ok := repo.packs.find(h)
				if !ok {
					t.Fatalf("%s %s: not found in the pack", o.typ, h)
				}
				if e, err := p.entryAt(off); err == nil && (e.typ == packOfsDelta || e.typ == packRefDelta) {
					deltas++
				}
				typ, _ := plumbing.ParseObjectType(o.typ)
				got, size, ok, err := repo.packs.read(h, typ, -1)
				if err != nil || !ok || !bytes.Equal(got, o.body) || size != int64(len(o.body)) {
					t.Fatalf("%s %s: %d bytes, size %d, ok %v, %v; want %d bytes", o.typ, h, len(got), size, ok, err, len(o.body))
				}
				other := plumbing.BlobObject
				if typ == plumbing.BlobObject {
					other = plumbing.TreeObject
				}
				if _, _, ok, _ := repo.packs.read(h, other, -1); ok {
					t.Errorf("%s %s read as a %s", o.typ, h, other)
				}
			}
			if deltas < len(want)/4 {
				t.Errorf("%d deltas among %d objects: the pack does not test them", deltas, len(want))
			}
		})
	}
}

// TestPackedSizeLimit reads the size of packed blobs over a limit, deltas
// among them, without their content: from the pack itself, not from
// go-git, which ReadBlobUpTo would ask otherwise. The limits are over and
// under a delta's own size, which read inflates whole or only its header.
func TestPackedSizeLimit(t *testing.T) {
	r := history(t)
	r.Git("repack", "-a", "-d", "-f", "-q")
	repo, err := OpenRepo(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	defer repo.Close()
	deltas := 0
	for _, rev := range []string{"HEAD", "HEAD~1", "HEAD~5"} {
		h := plumbing.NewHash(r.Git("rev-parse", rev+":big/table.txt"))
		want, _ := strconv.Atoi(r.Git("cat-file", "-s", h.String()))
		got, size, err := repo.ReadBlobUpTo(h, 1000)
		if err != nil || got != nil || size != int64(want) {
			t.Errorf("%s: %d bytes, size %d, %v; want none, size %d", rev, len(got), size, err, want)
		}
		e := packEntry(t, repo, h)
		if e.typ == packOfsDelta || e.typ == packRefDelta {
			deltas++
			t.Logf("%s: a delta of %d bytes", rev, e.size)
		}
		for _, max := range []int64{1000, 10} {
			got, size, ok, err := repo.packs.read(h, plumbing.BlobObject, max)
			if !ok || err != nil || got != nil || size != int64(want) {
				t.Errorf("%s, packed, max %d: %d bytes, size %d, ok %v, %v; want none, size %d", rev, max, len(got), size, ok, err, want)
			}
			if _, _, ok, err := repo.packs.read(h, plumbing.TreeObject, max); ok || err != nil {
				t.Errorf("%s, packed, max %d: read as a tree: ok %v, %v", rev, max, ok, err)
			}
		}
	}
	if deltas == 0 {
		t.Error("no revision's blob is a delta: the pack does not test them")
	}
}

// TestDamagedPackedBlob changes a byte of a packed blob's compressed data,
// and one of its checksum: reading it is an error, never other content.
func TestDamagedPackedBlob(t *testing.T) {
	for _, where := range []string{"data", "checksum"} {
		t.Run(where, func(t *testing.T) {
			r := gittest.New(t)
			body := strings.Repeat("package a\n\nfunc A() {}\n", 50)
			r.Commit("one", map[string]string{"a.go": body})
			r.Git("repack", "-a", "-d", "-q")
			h := plumbing.NewHash(r.Git("rev-parse", "HEAD:a.go"))
			repo, err := OpenRepo(r.Dir)
			if err != nil {
				t.Fatal(err)
			}
			e := packEntry(t, repo, h)
			packs, _ := filepath.Glob(filepath.Join(r.Dir, ".git", "objects", "pack", "*.pack"))
			repo.Close()
			data, err := os.ReadFile(packs[0])
			if err != nil {
				t.Fatal(err)
			}
			at := e.data + 10
			if where == "checksum" {
				// The stream's last byte: its Adler-32 ends it.
				src := bytes.NewReader(data[e.data:])
				zr, err := zlib.NewReader(src)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := io.Copy(io.Discard, zr); err != nil {
					t.Fatal(err)
				}
				at = int64(len(data)-src.Len()) - 1
			}
			data[at] ^= 0x55
			if err := os.WriteFile(packs[0], data, 0o644); err != nil {
				t.Fatal(err)
			}
			repo, err = OpenRepo(r.Dir)
			if err != nil {
				t.Fatal(err)
			}
			defer repo.Close()
			if _, _, ok, err := repo.packs.read(h, plumbing.BlobObject, -1); ok || err == nil {
				t.Errorf("damaged blob: ok %v, error %v; want an error", ok, err)
			}
			if got, err := repo.ReadBlob(h); err == nil && string(got) != body {
				t.Errorf("damaged blob read as %d other bytes", len(got))
			}
		})
	}
}

// TestBaseCache keeps the most recently used bases within its limit and
// never keeps one larger than a quarter of it.
func TestBaseCache(t *testing.T) {
	c := newBaseCache(100)
	p := &pack{}
	for off := range int64(5) {
		c.put(p, off, bytes.Repeat([]byte{byte(off)}, 20), packBlob+int(off)%2)
	}
	c.get(p, 0) // used: stays
	c.put(p, 5, bytes.Repeat([]byte{5}, 20), packTag)
	for off, want := range []bool{true, false, true, true, true, true} {
		b, typ, ok := c.get(p, int64(off))
		if ok != want || ok && (len(b) != 20 || b[0] != byte(off) || typ != packBlob+off%2) {
			t.Errorf("offset %d: cached %v (%d bytes, type %d), want %v", off, ok, len(b), typ, want)
		}
	}
	if c.bytes > c.limit {
		t.Errorf("%d bytes cached, limit %d", c.bytes, c.limit)
	}
	c.put(p, 9, make([]byte, 26), packBlob)
	if _, _, ok := c.get(p, 9); ok {
		t.Error("a base over a quarter of the limit was cached")
	}
}

// TestDamagedSizeAllocatesNothing: an entry whose header claims far more
// than its stream inflates to is an error, found without allocating what
// the header claims (a terabyte here).
func TestDamagedSizeAllocatesNothing(t *testing.T) {
	r := gittest.New(t)
	r.Commit("one", map[string]string{"a.go": strings.Repeat("package a\n\nfunc A() {}\n", 50)})
	r.Git("repack", "-a", "-d", "-q")
	h := plumbing.NewHash(r.Git("rev-parse", "HEAD:a.go"))
	repo, err := OpenRepo(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	defer repo.Close()
	e := packEntry(t, repo, h)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	e.size = 1 << 40
	if b, err := e.inflate(e.size, true); err == nil {
		t.Fatalf("a stream of %d bytes inflated as a terabyte", len(b))
	}
	delta := append(binary.AppendUvarint(nil, 3), binary.AppendUvarint(nil, 1<<39)...)
	if _, err := patch([]byte("abc"), append(delta, 0x91, 0, 3)); err == nil {
		t.Fatal("a delta that claims half a terabyte and copies 3 bytes applied")
	}
	runtime.ReadMemStats(&after)
	if n := after.TotalAlloc - before.TotalAlloc; n > 64<<20 {
		t.Errorf("%d MB allocated for sizes the headers claimed", n>>20)
	}
}

// packEntry finds an object's entry in the repository's packs.
func packEntry(t testing.TB, repo *Repo, h plumbing.Hash) entry {
	t.Helper()
	p, off, ok := repo.packs.find(h)
	if !ok {
		t.Fatalf("%s not in the pack", h)
	}
	e, err := p.entryAt(off)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// BenchmarkPackedBlobs reads every blob of a pack made of $GOROOT/src/net
// and five commits that each append a line to a tenth of its Go files
// (deltas, many of them): whole, and up to a limit that most exceed.
func BenchmarkPackedBlobs(b *testing.B) {
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		b.Skip("no go command:", err)
	}
	r := gittest.New(b)
	if err := os.CopyFS(r.Dir, os.DirFS(filepath.Join(strings.TrimSpace(string(goroot)), "src", "net"))); err != nil {
		b.Fatal(err)
	}
	r.Git("add", "-A")
	r.Git("commit", "-q", "-m", "net")
	files, _ := filepath.Glob(filepath.Join(r.Dir, "*.go"))
	for c := range 5 {
		for i, f := range files {
			if i%10 == c {
				data, err := os.ReadFile(f)
				if err != nil {
					b.Fatal(err)
				}
				if err := os.WriteFile(f, fmt.Appendf(data, "// commit %d\n", c), 0o644); err != nil {
					b.Fatal(err)
				}
			}
		}
		r.Git("commit", "-q", "-am", fmt.Sprintf("commit %d", c))
	}
	r.Git("repack", "-a", "-d", "-f", "-q", "--depth=50", "--window=50")
	var blobs []plumbing.Hash
	for _, line := range strings.Split(r.Git("cat-file", "--batch-all-objects", "--batch-check=%(objectname) %(objecttype)"), "\n") {
		if name, typ, _ := strings.Cut(line, " "); typ == "blob" {
			blobs = append(blobs, plumbing.NewHash(name))
		}
	}
	repo, err := OpenRepo(r.Dir)
	if err != nil {
		b.Fatal(err)
	}
	defer repo.Close()
	deltas := 0
	for _, h := range blobs {
		if e := packEntry(b, repo, h); e.typ == packOfsDelta || e.typ == packRefDelta {
			deltas++
		}
	}
	b.Logf("%d blobs, %d deltas", len(blobs), deltas)
	for _, max := range []int64{-1, 4096} {
		b.Run(fmt.Sprintf("max=%d", max), func(b *testing.B) {
			for b.Loop() {
				for _, h := range blobs {
					if _, _, ok, err := repo.packs.read(h, plumbing.BlobObject, max); !ok || err != nil {
						b.Fatalf("%s: ok %v, %v", h, ok, err)
					}
				}
			}
		})
	}
}
