package indexer

// Sharing the index through git. The content-keyed part of the index, what
// each blob chunks into and each chunk's vector, is stored as git objects
// under refs/bcindex/<model>: a commit whose tree holds one git blob per
// indexed blob, at <ab>/<cdef…> (the described blob's SHA), encoding its
// chunk metadata and int8 vectors. Git moves only the objects the other side
// lacks; a push adds entries to the previous tree, so entries are written
// once. A receiver never trusts an entry: it must describe a blob the
// receiver has, its byte ranges must fit that blob, and each chunk's content
// hash must be the hash of the text the blob really holds at that range
// (chunk.IndexText). Only then are its vectors stored, keyed by those
// hashes, where the indexer finds them instead of embedding.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"os/exec"
	"sort"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/bcindex/bcindex/chunk"
	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/store"
	"github.com/bcindex/bcindex/vector"
)

const shareMagic = "BCSHARE1"

// ShareRef is the ref holding the shared index of a model.
func ShareRef(model string) plumbing.ReferenceName {
	return plumbing.ReferenceName("refs/bcindex/" + strings.TrimSuffix(strings.TrimPrefix(store.VectorFileName(model), "vec-"), ".bin"))
}

// remoteShareRef is where a fetched share is kept, per remote.
func remoteShareRef(remote, model string) plumbing.ReferenceName {
	return plumbing.ReferenceName("refs/bcindex-remotes/" + remote + "/" + strings.TrimPrefix(string(ShareRef(model)), "refs/bcindex/"))
}

// ShareSummary reports a push or fetch.
type ShareSummary struct {
	Ref      string         `json:"ref"`
	Commit   string         `json:"commit"`
	Entries  int            `json:"entries"`  // blobs described by the shared tree
	Written  int            `json:"written"`  // push: entries added this time
	Imported int            `json:"imported"` // fetch: entries verified and stored
	Vectors  int            `json:"vectors"`  // fetch: vectors stored
	Present  int            `json:"present"`  // fetch: blobs already indexed here
	Unknown  int            `json:"unknown"`  // fetch: blobs this repository does not have
	Rejected map[string]int `json:"rejected"` // fetch: entries refused, by reason
	// Verified are the chunk lists of the imported entries, by blob: an
	// index run takes them instead of parsing (Options.Shared).
	Verified map[plumbing.Hash][]chunk.Chunk `json:"-"`
}

type sharedChunk struct {
	rec   store.ChunkRecord
	vec   []int8
	scale float32
}

// segmentChunks reads the rows of one blob and their vectors.
func segmentChunks(seg *store.Segment, first, n int) []sharedChunk {
	out := make([]sharedChunk, n)
	for r := first; r < first+n; r++ {
		row := seg.RowDetail(r)
		parent := -1
		if row.Parent >= 0 {
			parent = row.Parent - first
		}
		c := &out[r-first]
		c.rec = store.ChunkRecord{Kind: row.Kind, Name: row.Name, Signature: row.Signature, Parent: parent,
			StartLine: row.StartLine, EndLine: row.EndLine, StartByte: row.StartByte, EndByte: row.EndByte,
			SyntaxError: row.SyntaxError, Hash: row.Hash}
		if seg.Vec != nil {
			c.vec, c.scale = seg.Vec.Row(r)
		}
	}
	return out
}

// encodeShareEntry encodes the chunks of one blob and their vectors.
func encodeShareEntry(version, dim int, chunks []sharedChunk) []byte {
	e := store.Encoder{}
	e.Buf = append(e.Buf, shareMagic...)
	e.Uint(uint64(version))
	e.Uint(uint64(dim))
	e.Uint(uint64(len(chunks)))
	for _, sc := range chunks {
		c := sc.rec
		c.EncodePlace(&e, true)
		e.Bool(sc.vec != nil)
		if sc.vec != nil {
			e.Uint(uint64(math.Float32bits(sc.scale)))
			for _, x := range sc.vec {
				e.Buf = append(e.Buf, byte(x))
			}
		}
	}
	return e.Buf
}

// decodeShareEntry parses an entry; malformed input is an error, never a panic.
func decodeShareEntry(p []byte) (version int, chunks []sharedChunk, err error) {
	if !bytes.HasPrefix(p, []byte(shareMagic)) {
		return 0, nil, errors.New("bad header")
	}
	d := store.Decoder{Buf: p[len(shareMagic):]}
	version = int(d.Uint())
	dim := int(d.Uint())
	n := d.Uint()
	if d.Err != nil || n > uint64(len(p)) || dim > 1<<16 {
		return 0, nil, errors.New("bad counts")
	}
	chunks = make([]sharedChunk, n)
	for i := range chunks {
		chunks[i].rec.DecodePlace(&d, true)
		if d.Bool() {
			chunks[i].scale = math.Float32frombits(uint32(d.Uint()))
			b := d.Bytes(dim)
			chunks[i].vec = make([]int8, len(b))
			for k, x := range b {
				chunks[i].vec[k] = int8(x)
			}
		}
		if d.Err != nil {
			return 0, nil, fmt.Errorf("chunk %d: %w", i, d.Err)
		}
	}
	if len(d.Buf) != 0 {
		return 0, nil, errors.New("trailing bytes")
	}
	return version, chunks, nil
}

// verifyEntry checks an entry against the blob it claims to describe and
// returns why it is refused, or "".
func verifyEntry(content []byte, chunks []sharedChunk, dim int) (why string) {
	defer func() {
		if recover() != nil {
			why = "malformed" // IndexText on ranges no chunker would produce
		}
	}()
	f := sharedFile(chunks)
	for i, sc := range chunks {
		c := sc.rec
		if c.StartByte < 0 || c.StartByte > c.EndByte || c.EndByte > len(content) || c.Parent >= i || (c.Parent < 0 && i > 0) {
			return "bad range"
		}
		if bytes.Count(content[:c.StartByte], []byte{'\n'})+1 != c.StartLine {
			return "bad range"
		}
		if sc.vec != nil && (len(sc.vec) != dim || !(sc.scale > 0) || math.IsInf(float64(sc.scale), 0)) {
			return "bad vector"
		}
	}
	for i, sc := range chunks {
		if sc.rec.Hash == ([16]byte{}) {
			if sc.vec != nil {
				return "bad vector"
			}
			continue
		}
		if store.ContentHash(chunk.IndexText(content, f, i)) != sc.rec.Hash {
			return "hash mismatch"
		}
	}
	return ""
}

// sharedFile is the chunk list an entry describes.
func sharedFile(chunks []sharedChunk) chunk.File {
	f := chunk.File{Chunks: make([]chunk.Chunk, len(chunks))}
	for i, sc := range chunks {
		c := sc.rec
		f.Chunks[i] = chunk.Chunk{Kind: c.Kind, Name: c.Name, Parent: c.Parent, Signature: c.Signature,
			StartLine: c.StartLine, EndLine: c.EndLine, StartByte: c.StartByte, EndByte: c.EndByte, SyntaxError: c.SyntaxError}
	}
	return f
}

// ExportShare adds every indexed blob of the snapshot that the share lacks to
// a new commit on ShareRef(model). Entries of the trees of also (e.g. the
// remote's share) are kept, and those commits become parents, so that the
// result fast-forwards them.
func ExportShare(r *gitindex.Repo, model string, also ...plumbing.Hash) (*ShareSummary, error) {
	snap, err := store.OpenSnapshot(r.IndexDir, model)
	if err != nil {
		return nil, err
	}
	defer snap.Close()
	ref := ShareRef(model)
	sum := &ShareSummary{Ref: string(ref)}
	entries := map[string]map[string]plumbing.Hash{} // fan-out dir → name → entry blob
	var parents []plumbing.Hash
	if cur, err := r.Git.Reference(ref, true); err == nil {
		also = append([]plumbing.Hash{cur.Hash()}, also...)
	}
	for _, h := range also {
		if h.IsZero() || containsHash(parents, h) {
			continue
		}
		if err := readShareTree(r, h, entries); err != nil {
			return nil, err
		}
		parents = append(parents, h)
	}
	for _, seg := range snap.Segments {
		dim := 0
		if seg.Vec != nil {
			dim = seg.Vec.Dim()
		}
		for b := 0; b < seg.Blobs(); b++ {
			first, n := seg.Table.BlobRange(b)
			if n == 0 {
				continue
			}
			hex := seg.BlobSHA(b).String()
			dir, name := hex[:2], hex[2:]
			if _, ok := entries[dir][name]; ok {
				continue
			}
			h, err := writeObject(r, plumbing.BlobObject, encodeShareEntry(chunk.Version, dim, segmentChunks(seg, first, n)))
			if err != nil {
				return nil, err
			}
			if entries[dir] == nil {
				entries[dir] = map[string]plumbing.Hash{}
			}
			entries[dir][name] = h
			sum.Written++
		}
	}
	for _, names := range entries {
		sum.Entries += len(names)
	}
	ch := plumbing.ZeroHash
	if sum.Written == 0 && len(parents) == 1 {
		ch = parents[0] // nothing new: keep the commit
	} else if ch, err = writeShareCommit(r, entries, parents, fmt.Sprintf("bcindex %s: %d blobs\n", model, sum.Entries)); err != nil {
		return nil, err
	}
	if err := r.Git.Storer.SetReference(plumbing.NewHashReference(ref, ch)); err != nil {
		return nil, fmt.Errorf("share: update %s: %w", ref, err)
	}
	sum.Commit = ch.String()
	return sum, nil
}

// writeShareCommit writes the fan-out tree of entries and a commit of it.
func writeShareCommit(r *gitindex.Repo, entries map[string]map[string]plumbing.Hash, parents []plumbing.Hash, msg string) (plumbing.Hash, error) {
	root := &object.Tree{}
	for dir, names := range entries {
		sub := &object.Tree{}
		for name, h := range names {
			sub.Entries = append(sub.Entries, object.TreeEntry{Name: name, Mode: filemode.Regular, Hash: h})
		}
		th, err := writeTree(r, sub)
		if err != nil {
			return plumbing.ZeroHash, err
		}
		root.Entries = append(root.Entries, object.TreeEntry{Name: dir, Mode: filemode.Dir, Hash: th})
	}
	th, err := writeTree(r, root)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	sig := object.Signature{Name: "git-bcindex", Email: "git-bcindex@localhost", When: time.Now()}
	c := &object.Commit{Author: sig, Committer: sig, TreeHash: th, ParentHashes: parents, Message: msg}
	obj := r.Git.Storer.NewEncodedObject()
	if err := c.Encode(obj); err != nil {
		return plumbing.ZeroHash, fmt.Errorf("share: encode commit: %w", err)
	}
	ch, err := r.Git.Storer.SetEncodedObject(obj)
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("share: write commit: %w", err)
	}
	return ch, nil
}

func containsHash(hs []plumbing.Hash, h plumbing.Hash) bool {
	for _, x := range hs {
		if x == h {
			return true
		}
	}
	return false
}

func writeObject(r *gitindex.Repo, t plumbing.ObjectType, data []byte) (plumbing.Hash, error) {
	obj := r.Git.Storer.NewEncodedObject()
	obj.SetType(t)
	obj.SetSize(int64(len(data)))
	w, err := obj.Writer()
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("share: write object: %w", err)
	}
	if _, err := w.Write(data); err != nil {
		return plumbing.ZeroHash, fmt.Errorf("share: write object: %w", err)
	}
	w.Close()
	h, err := r.Git.Storer.SetEncodedObject(obj)
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("share: write object: %w", err)
	}
	return h, nil
}

func writeTree(r *gitindex.Repo, t *object.Tree) (plumbing.Hash, error) {
	sort.Slice(t.Entries, func(i, j int) bool { return t.Entries[i].Name < t.Entries[j].Name })
	obj := r.Git.Storer.NewEncodedObject()
	if err := t.Encode(obj); err != nil {
		return plumbing.ZeroHash, fmt.Errorf("share: encode tree: %w", err)
	}
	h, err := r.Git.Storer.SetEncodedObject(obj)
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("share: write tree: %w", err)
	}
	return h, nil
}

// readShareTree adds the entries of a share commit's tree to entries.
func readShareTree(r *gitindex.Repo, commit plumbing.Hash, entries map[string]map[string]plumbing.Hash) error {
	return forEachShareEntry(r, commit, func(dir, name string, h plumbing.Hash) error {
		if entries[dir] == nil {
			entries[dir] = map[string]plumbing.Hash{}
		}
		entries[dir][name] = h
		return nil
	})
}

func forEachShareEntry(r *gitindex.Repo, commit plumbing.Hash, fn func(dir, name string, h plumbing.Hash) error) error {
	c, err := r.Git.CommitObject(commit)
	if err != nil {
		return fmt.Errorf("share: read commit %s: %w", commit, err)
	}
	root, err := r.Git.TreeObject(c.TreeHash)
	if err != nil {
		return fmt.Errorf("share: read tree %s: %w", c.TreeHash, err)
	}
	for _, d := range root.Entries {
		if d.Mode != filemode.Dir || len(d.Name) != 2 {
			continue
		}
		sub, err := r.Git.TreeObject(d.Hash)
		if err != nil {
			return fmt.Errorf("share: read tree %s: %w", d.Hash, err)
		}
		for _, e := range sub.Entries {
			if len(d.Name)+len(e.Name) != 40 || e.Mode != filemode.Regular {
				continue
			}
			if err := fn(d.Name, e.Name, e.Hash); err != nil {
				return err
			}
		}
	}
	return nil
}

// ImportShare verifies the entries of a share commit for blobs this index
// lacks and stores their vectors, so that indexing those blobs computes no
// embeddings. dim is the model's vector size.
func ImportShare(ctx context.Context, r *gitindex.Repo, commit plumbing.Hash, model string, dim int, lockWait time.Duration) (*ShareSummary, error) {
	lock, err := store.AcquireLock(ctx, r.IndexDir, lockWait)
	if err != nil {
		return nil, err
	}
	defer lock.Release()
	snap, err := store.OpenSnapshot(r.IndexDir, "")
	if errors.Is(err, store.ErrNoIndex) {
		snap, err = &store.Snapshot{}, nil
	}
	if err != nil {
		return nil, err
	}
	defer snap.Close()
	st, err := store.OpenStore(r.IndexDir)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	batch := st.NewBatch()
	defer batch.Cancel()
	sum := &ShareSummary{Ref: string(ShareRef(model)), Commit: commit.String(), Rejected: map[string]int{}}
	err = forEachShareEntry(r, commit, func(dir, name string, h plumbing.Hash) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		sum.Entries++
		blob := plumbing.NewHash(dir + name)
		if _, ok := snap.FindBlob(blob); ok {
			sum.Present++
			return nil
		}
		content, err := r.ReadBlob(blob)
		if err != nil {
			sum.Unknown++ // nothing here to verify it against, nor to use it for
			return nil
		}
		raw, err := r.ReadBlob(h)
		if err != nil {
			return err
		}
		version, chunks, err := decodeShareEntry(raw)
		switch {
		case err != nil:
			sum.Rejected["malformed"]++
			return nil
		case version != chunk.Version:
			sum.Rejected["other chunker version"]++
			return nil
		}
		if why := verifyEntry(content, chunks, dim); why != "" {
			sum.Rejected[why]++
			return nil
		}
		if sum.Verified == nil {
			sum.Verified = map[plumbing.Hash][]chunk.Chunk{}
		}
		sum.Verified[blob] = sharedFile(chunks).Chunks
		for _, c := range chunks {
			if c.vec == nil {
				continue
			}
			if err := batch.Put(vector.Key(model, c.rec.Hash[:]), vector.Encode(c.vec, c.scale)); err != nil {
				return err
			}
			sum.Vectors++
		}
		sum.Imported++
		return nil
	})
	if err != nil {
		return sum, err
	}
	return sum, batch.Flush()
}

// PushShare exports the index for model and pushes it to remote, after
// folding in what the remote already shares.
func PushShare(ctx context.Context, r *gitindex.Repo, remote, model string) (*ShareSummary, error) {
	ref := ShareRef(model)
	var also []plumbing.Hash
	if h, err := fetchShareRef(ctx, r, remote, model); err != nil {
		return nil, err
	} else if !h.IsZero() {
		also = append(also, h)
	}
	sum, err := ExportShare(r, model, also...)
	if err != nil {
		return nil, err
	}
	if err := runGit(ctx, r, "push", "--quiet", remote, string(ref)+":"+string(ref)); err != nil {
		return sum, fmt.Errorf("push %s to %s: %w", ref, remote, err)
	}
	return sum, nil
}

// FetchShare fetches remote's share for model and imports it.
func FetchShare(ctx context.Context, r *gitindex.Repo, remote, model string, dim int, lockWait time.Duration) (*ShareSummary, error) {
	h, err := fetchShareRef(ctx, r, remote, model)
	if err != nil {
		return nil, err
	}
	if h.IsZero() {
		return nil, fmt.Errorf("%s shares no index for model %s (%s): %w", remote, model, ShareRef(model), store.ErrNoIndex)
	}
	return ImportShare(ctx, r, h, model, dim, lockWait)
}

// fetchShareRef fetches remote's ShareRef into remoteShareRef and returns
// its commit, or zero when the remote has none.
func fetchShareRef(ctx context.Context, r *gitindex.Repo, remote, model string) (plumbing.Hash, error) {
	local := remoteShareRef(remote, model)
	out, err := gitOutput(ctx, r, "ls-remote", remote, string(ShareRef(model)))
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("list %s on %s: %w", ShareRef(model), remote, err)
	}
	if strings.TrimSpace(out) == "" {
		return plumbing.ZeroHash, nil
	}
	if err := runGit(ctx, r, "fetch", "--quiet", "--no-tags", remote, "+"+string(ShareRef(model))+":"+string(local)); err != nil {
		return plumbing.ZeroHash, fmt.Errorf("fetch %s from %s: %w", ShareRef(model), remote, err)
	}
	ref, err := r.Git.Reference(local, true)
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("read %s: %w", local, err)
	}
	return ref.Hash(), nil
}

func runGit(ctx context.Context, r *gitindex.Repo, args ...string) error {
	_, err := gitOutput(ctx, r, args...)
	return err
}

func gitOutput(ctx context.Context, r *gitindex.Repo, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"--git-dir", r.GitDir}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return "", fmt.Errorf("git %s: %s", args[0], msg)
	}
	return string(out), nil
}
