package share

// Sharing the index through git. The content-keyed part of the index, what
// each blob chunks into and each chunk's vector, is stored as git objects
// under refs/bcindex/<model>: a commit whose tree holds one git blob per
// indexed blob, at <ab>/<cdef…> (the described blob's SHA), encoding its
// chunk metadata and int8 vectors. Git moves only the objects the other side
// lacks; a push adds entries to the previous tree, so entries are written
// once. A receiver never trusts an entry: it must describe a blob the
// receiver has, its byte ranges must fit that blob, and each chunk's content
// hash must be the hash of the text the blob really holds at that range
// (vocab.IndexText). Only then are its vectors stored, keyed by those
// hashes, where the indexer finds them instead of embedding.

import (
	"context"
	"errors"
	"fmt"
	"path"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/bcindex/bcindex/chunk"
	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/indexer"
	"github.com/bcindex/bcindex/segment"
	"github.com/bcindex/bcindex/store"
	"github.com/bcindex/bcindex/store/storewrite"
)

// An entry starts with its format's magic. BCSHARE2 entries carry each
// chunk's metadata (doc, qualified name, access, decorators, imports, syntax
// error) and end with the CRC-32C of everything before it, so a damaged
// entry is refused before it is read; BCSHARE1 entries (no metadata, no
// checksum) are still read.
const (
	shareMagicV1 = "BCSHARE1"
	shareMagic   = "BCSHARE2"
)

// Ref is the ref holding the shared index of a model:
// refs/bcindex/<model>-<hash>, the model's name made safe for a file name
// and a short hash of it, as segment.VectorFileName writes them without
// its prefix and extension.
func Ref(model string) plumbing.ReferenceName {
	name := strings.TrimPrefix(segment.VectorFileName(model), "vec-")
	return plumbing.ReferenceName("refs/bcindex/" + strings.TrimSuffix(name, path.Ext(name)))
}

// legacyShareRef is the name some versions pushed the share under, with
// the vector file's ".loc" extension left on: still read, never written.
func legacyShareRef(model string) plumbing.ReferenceName {
	return Ref(model) + ".loc"
}

// remoteShareRef is where a fetched share ref is kept, per remote.
func remoteShareRef(remote string, ref plumbing.ReferenceName) plumbing.ReferenceName {
	return plumbing.ReferenceName("refs/bcindex-remotes/" + remote + "/" + strings.TrimPrefix(string(ref), "refs/bcindex/"))
}

// Summary reports a push or fetch.
type Summary struct {
	Ref      string         `json:"ref"`
	Commit   string         `json:"commit"`
	Entries  int            `json:"entries"`  // blobs described by the shared tree
	Written  int            `json:"written"`  // push: entries added this time
	Imported int            `json:"imported"` // fetch: entries verified
	Vectors  int            `json:"vectors"`  // fetch: vectors verified entries carry
	Present  int            `json:"present"`  // fetch: blobs already indexed here
	Unknown  int            `json:"unknown"`  // fetch: blobs this repository does not have
	Rejected map[string]int `json:"rejected"` // fetch: entries refused, by reason
	// Verified are the chunk lists of the imported entries, by blob: an
	// index run takes them instead of parsing (Options.Shared).
	Verified map[plumbing.Hash][]chunk.Chunk `json:"-"`
	// SharedVectors are their vectors, by content hash: the index run
	// stores them instead of embedding (Options.SharedVectors).
	SharedVectors map[[16]byte]indexer.SharedVector `json:"-"`
}

// Export adds every indexed blob of the snapshot that the share lacks to
// a new commit on Ref(model). Entries of the trees of also (e.g. the
// remote's share) are kept, and those commits become parents, so that the
// result fast-forwards them.
func Export(r *gitindex.Repo, model string, also ...plumbing.Hash) (*Summary, error) {
	snap, err := store.OpenSnapshot(r.IndexDir, model)
	if err != nil {
		return nil, err
	}
	defer snap.Close()
	ref := Ref(model)
	sum := &Summary{Ref: string(ref)}
	entries := map[string]map[string]plumbing.Hash{} // fan-out dir → name → entry blob
	var parents []plumbing.Hash
	for _, name := range []plumbing.ReferenceName{legacyShareRef(model), ref} {
		if cur, err := r.Git.Reference(name, true); err == nil {
			also = append([]plumbing.Hash{cur.Hash()}, also...)
		}
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
			chunks, err := segmentChunks(seg, first, n)
			if err != nil {
				return nil, err
			}
			h, err := writeObject(r, plumbing.BlobObject, encodeShareEntry(chunk.Version, dim, chunks))
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

// Import verifies the entries of a share commit for blobs this index
// lacks and returns their chunk lists and vectors (Verified, Vectors), for
// the indexing run that follows (Options.Shared, Options.SharedVectors) to
// parse and embed nothing of them. dim is the model's vector size.
func Import(ctx context.Context, r *gitindex.Repo, commit plumbing.Hash, model string, dim int, lockWait time.Duration) (*Summary, error) {
	lock, err := storewrite.AcquireLock(ctx, r.IndexDir, lockWait)
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
	sum := &Summary{Ref: string(Ref(model)), Commit: commit.String(), Rejected: map[string]int{}}
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
		case errors.Is(err, errEntryChecksum):
			sum.Rejected["checksum mismatch"]++
			return nil
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
			if sum.SharedVectors == nil {
				sum.SharedVectors = map[[16]byte]indexer.SharedVector{}
			}
			sum.SharedVectors[c.rec.Hash] = indexer.SharedVector{Q: c.vec, Scale: c.scale}
			sum.Vectors++
		}
		sum.Imported++
		return nil
	})
	return sum, err
}

// Push exports the index for model and pushes it to remote, after
// folding in what the remote already shares.
func Push(ctx context.Context, r *gitindex.Repo, remote, model string) (*Summary, error) {
	ref := Ref(model)
	also, err := fetchShareRefs(ctx, r, remote, model)
	if err != nil {
		return nil, err
	}
	sum, err := Export(r, model, also...)
	if err != nil {
		return nil, err
	}
	if err := runGit(ctx, r, "push", "--quiet", remote, string(ref)+":"+string(ref)); err != nil {
		return sum, fmt.Errorf("push %s to %s: %w", ref, remote, err)
	}
	return sum, nil
}

// Fetch fetches remote's share for model and imports it.
func Fetch(ctx context.Context, r *gitindex.Repo, remote, model string, dim int, lockWait time.Duration) (*Summary, error) {
	hs, err := fetchShareRefs(ctx, r, remote, model)
	if err != nil {
		return nil, err
	}
	if len(hs) == 0 {
		return nil, fmt.Errorf("%s shares no index for model %s (%s): %w", remote, model, Ref(model), store.ErrNoIndex)
	}
	return Import(ctx, r, hs[0], model, dim, lockWait)
}
