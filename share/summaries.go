package share

// Sharing generated summaries (`git bcindex enhance`) through git, beside
// the index share (share.go): refs/bcindex-summaries/<model>-p<prompt>
// holds one git blob per summarised chunk text at <ab>/<cdef…> (the
// chunk's content hash in hex), each the stored JSON record after the
// magic and followed by its CRC-32C. The records stay marked generated and
// name their model; a receiver takes only entries that pass the checksum,
// parse, name the model and prompt version the ref is for, are marked
// generated and hold a summary of a sane size — a summary is a model's
// text, so nothing more of it can be checked against the code.

import (
	"context"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/internal/checksum"
	"github.com/bcindex/bcindex/segment"
	"github.com/bcindex/bcindex/store"
	"github.com/bcindex/bcindex/store/storewrite"
)

const summaryShareMagic = "BCSUMM01"

// Bounds of a shared summary's text (enhance asks for 10–1200 bytes).
const (
	sharedSummaryMin = 10
	sharedSummaryMax = 1200
)

// SummaryShareRef is the ref holding the summaries model wrote under
// prompt version prompt.
func SummaryShareRef(model string, prompt int) plumbing.ReferenceName {
	safe := strings.TrimSuffix(strings.TrimPrefix(segment.VectorFileName(model), "vec-"), ".loc")
	return plumbing.ReferenceName(fmt.Sprintf("refs/bcindex-summaries/%s-p%d", safe, prompt))
}

// SummaryShare reports a push or fetch of summaries.
type SummaryShare struct {
	Ref      string         `json:"ref"`
	Commit   string         `json:"commit"`
	Entries  int            `json:"entries"`  // summaries in the shared tree
	Written  int            `json:"written"`  // push: entries added this time
	Imported int            `json:"imported"` // fetch: entries taken into the store
	Present  int            `json:"present"`  // fetch: summaries the store already had
	Rejected map[string]int `json:"rejected"` // fetch: entries refused, by reason
}

func encodeSummaryEntry(record []byte) []byte {
	b := append([]byte(summaryShareMagic), record...)
	return binary.LittleEndian.AppendUint32(b, checksum.Sum(b))
}

// decodeSummaryEntry checks an entry and returns its record, re-encoded
// from the fields a summary has, or why it is refused.
func decodeSummaryEntry(raw []byte, model string, prompt int) ([]byte, string) {
	if len(raw) < len(summaryShareMagic)+4 || string(raw[:len(summaryShareMagic)]) != summaryShareMagic {
		return nil, "malformed"
	}
	body := raw[:len(raw)-4]
	if checksum.Sum(body) != binary.LittleEndian.Uint32(raw[len(body):]) {
		return nil, "checksum mismatch"
	}
	var g store.GeneratedSummary
	if err := json.Unmarshal(body[len(summaryShareMagic):], &g); err != nil {
		return nil, "malformed"
	}
	switch {
	case g.Model != model || g.Prompt != prompt:
		return nil, "other model or prompt"
	case !g.Generated:
		return nil, "not marked generated"
	case len(g.Summary) < sharedSummaryMin || len(g.Summary) > sharedSummaryMax || len(g.Keywords) > 32 || len(g.Purpose) > sharedSummaryMax:
		return nil, "malformed"
	}
	rec, _ := json.Marshal(g)
	return rec, ""
}

// PushSummaries adds the summaries model wrote under prompt that the
// shared tree lacks (folding in the remote's) and pushes the ref; nil when
// there is nothing to share.
func PushSummaries(ctx context.Context, r *gitindex.Repo, remote, model string, prompt int, lockWait time.Duration) (*SummaryShare, error) {
	ref := SummaryShareRef(model, prompt)
	entries := map[string]map[string]plumbing.Hash{}
	var parents []plumbing.Hash
	remoteHead, err := fetchRef(ctx, r, remote, ref, remoteRef(remote, ref))
	if err != nil {
		return nil, err
	}
	for _, h := range []plumbing.Hash{localRef(r, ref), remoteHead} {
		if h.IsZero() || containsHash(parents, h) {
			continue
		}
		if err := forEachEntry(r, h, 32, func(dir, name string, e plumbing.Hash) error {
			if entries[dir] == nil {
				entries[dir] = map[string]plumbing.Hash{}
			}
			entries[dir][name] = e
			return nil
		}); err != nil {
			return nil, err
		}
		parents = append(parents, h)
	}
	sum := &SummaryShare{Ref: string(ref)}
	err = storewrite.WithLocked(ctx, r.IndexDir, lockWait, func(st *storewrite.Store) error {
		return st.Summaries(prompt, model, func(hash [16]byte, v []byte) error {
			x := hex.EncodeToString(hash[:])
			if _, ok := entries[x[:2]][x[2:]]; ok {
				return nil
			}
			h, err := writeObject(r, plumbing.BlobObject, encodeSummaryEntry(v))
			if err != nil {
				return err
			}
			if entries[x[:2]] == nil {
				entries[x[:2]] = map[string]plumbing.Hash{}
			}
			entries[x[:2]][x[2:]] = h
			sum.Written++
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("share summaries: %w", err)
	}
	for _, names := range entries {
		sum.Entries += len(names)
	}
	if sum.Entries == 0 {
		return nil, nil
	}
	var head plumbing.Hash
	if sum.Written == 0 && len(parents) == 1 {
		head = parents[0] // nothing new: keep the commit
	} else if head, err = writeShareCommit(r, entries, parents, fmt.Sprintf("bcindex summaries by %s, prompt %d: %d chunk texts (generated)\n", model, prompt, sum.Entries)); err != nil {
		return nil, err
	}
	if err := r.Git.Storer.SetReference(plumbing.NewHashReference(ref, head)); err != nil {
		return nil, fmt.Errorf("share summaries: update %s: %w", ref, err)
	}
	sum.Commit = head.String()
	if err := runGit(ctx, r, "push", "--quiet", remote, string(ref)+":"+string(ref)); err != nil {
		return sum, fmt.Errorf("push %s to %s: %w", ref, remote, err)
	}
	return sum, nil
}

// FetchSummaries fetches remote's summaries by model under prompt and
// stores those that pass the checks and the store lacks; nil when the
// remote shares none.
func FetchSummaries(ctx context.Context, r *gitindex.Repo, remote, model string, prompt int, lockWait time.Duration) (*SummaryShare, error) {
	ref := SummaryShareRef(model, prompt)
	head, err := fetchRef(ctx, r, remote, ref, remoteRef(remote, ref))
	if err != nil || head.IsZero() {
		return nil, err
	}
	sum := &SummaryShare{Ref: string(ref), Commit: head.String(), Rejected: map[string]int{}}
	err = storewrite.WithLocked(ctx, r.IndexDir, lockWait, func(st *storewrite.Store) error {
		have, err := st.SummaryHashes(prompt, model)
		if err != nil {
			return err
		}
		b := st.NewBatch()
		err = forEachEntry(r, head, 32, func(dir, name string, e plumbing.Hash) error {
			sum.Entries++
			raw, err := hex.DecodeString(dir + name)
			if err != nil {
				sum.Rejected["malformed"]++
				return nil
			}
			hash := [16]byte(raw)
			if have[hash] {
				sum.Present++
				return nil
			}
			blob, err := r.ReadBlob(e)
			if err != nil {
				return err
			}
			rec, why := decodeSummaryEntry(blob, model, prompt)
			if why != "" {
				sum.Rejected[why]++
				return nil
			}
			sum.Imported++
			return b.Put(storewrite.SummaryKey(hash, prompt, model), rec)
		})
		if err != nil {
			b.Cancel()
			return err
		}
		return b.Flush()
	})
	if err != nil {
		return sum, fmt.Errorf("fetch summaries: %w", err)
	}
	return sum, nil
}

// localRef is ref's commit here, zero when there is none.
func localRef(r *gitindex.Repo, ref plumbing.ReferenceName) plumbing.Hash {
	if h, err := r.Git.Reference(ref, true); err == nil {
		return h.Hash()
	}
	return plumbing.ZeroHash
}

// remoteRef is where a fetched ref of refs/<kind>/<name> is kept, per
// remote.
func remoteRef(remote string, ref plumbing.ReferenceName) plumbing.ReferenceName {
	kind, name, _ := strings.Cut(strings.TrimPrefix(string(ref), "refs/"), "/")
	return plumbing.ReferenceName("refs/" + kind + "-remotes/" + remote + "/" + name)
}
