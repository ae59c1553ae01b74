package hooks

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/indexer"
)

// stateFile holds the tree the last background round indexed: the usual
// base for the next round's diff.
const stateFile = "hook.state"

// maxAncestors bounds how far back bases looks for a listed tree.
const maxAncestors = 64

// LockWait is how long a background round waits for a foreground indexer.
const LockWait = 30 * time.Minute

// After is more background work once a round has indexed head, given the
// tree diff the round listed it from (d.NewBlobs: the blobs it added). Its
// line joins the round's log line; its failure is logged there and fails
// nothing, since the index is up to date.
type After func(ctx context.Context, repo *gitindex.Repo, head gitindex.Commit, d *gitindex.TreeDiff) (string, error)

// IndexJob returns the Job that indexes HEAD of the repository at dir.
// Only the changes since an already listed tree are looked at: the tree
// listing is derived from the diff, and the indexer chunks only the blobs
// no segment holds (a rename processes nothing). options supplies the
// indexing options from the repository's configuration; after, if any,
// runs once HEAD is indexed.
func IndexJob(dir string, options func(*gitindex.Repo) (indexer.Options, error), after ...After) Job {
	return func(ctx context.Context, t Trigger) (string, error) {
		// Reopened every round: HEAD and the object database have moved.
		repo, err := gitindex.OpenRepo(dir)
		if err != nil {
			return "", err
		}
		opts, err := options(repo)
		if err != nil {
			return "", err
		}
		head, err := repo.Resolve("HEAD")
		if err != nil {
			return "", err
		}
		_, d, err := repo.ListingFrom(ctx, head.Tree, bases(repo, head, t)...)
		if err != nil {
			return "", fmt.Errorf("list %s: %w", head.Hash, err)
		}
		sum, err := indexer.NewIndexer(repo, opts).Index(ctx, []string{head.Hash.String()}, LockWait)
		if err != nil {
			return "", fmt.Errorf("index %s: %w", head.Hash, err)
		}
		if err := os.WriteFile(filepath.Join(repo.IndexDir, stateFile), []byte(head.Tree.String()+"\n"), 0o644); err != nil {
			return "", fmt.Errorf("record indexed tree: %w", err)
		}
		line := fmt.Sprintf("head=%s %s blobs_new=%d blobs_reused=%d chunks=%d embedded=%d elapsed=%s",
			head.Hash.String()[:12], describeDiff(d), sum.BlobsNew, sum.BlobsReused, sum.Chunks, sum.Embedded,
			sum.Elapsed.Round(time.Millisecond))
		for _, a := range after {
			more, err := a(ctx, repo, head, d)
			if err != nil {
				more = fmt.Sprintf("then failed: %v", err)
			}
			if more != "" {
				line += " " + more
			}
		}
		return line, nil
	}
}

func describeDiff(d *gitindex.TreeDiff) string {
	switch {
	case d.Cached:
		return "listing=cached"
	case d.Walked:
		return "listing=walked"
	}
	return fmt.Sprintf("listing=diff base=%s added=%d modified=%d deleted=%d", d.Base.String()[:12], d.Added, d.Modified, d.Deleted)
}

// bases lists trees whose cached listing is a good starting point for
// HEAD's, most likely first: the last indexed tree, HEAD's parents (commit,
// merge), the hook's own hint (post-checkout's previous HEAD) and ORIG_HEAD
// (merge, rebase). ListingFrom uses the first one that is cached.
func bases(repo *gitindex.Repo, head gitindex.Commit, t Trigger) []plumbing.Hash {
	var out []plumbing.Hash
	if b, err := os.ReadFile(filepath.Join(repo.IndexDir, stateFile)); err == nil {
		out = append(out, plumbing.NewHash(strings.TrimSpace(string(b))))
	}
	out = append(out, repo.AncestorTrees(head.Hash, maxAncestors)...)
	var revs []string
	if t.Hook == "post-checkout" && len(t.Args) > 0 {
		revs = append(revs, t.Args[0])
	}
	revs = append(revs, "ORIG_HEAD")
	for _, rev := range revs {
		if c, err := repo.Resolve(rev); err == nil {
			out = append(out, c.Tree)
		}
	}
	return out
}
