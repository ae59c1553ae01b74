package gc

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/dgraph-io/badger/v4"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/indexer"
	"github.com/bcindex/bcindex/segment"
	"github.com/bcindex/bcindex/store"
	"github.com/bcindex/bcindex/store/storewrite"
)

// Summary reports what a garbage collection removed.
type Summary struct {
	Refs                int           `json:"refs"`            // commits the live set was computed from
	LiveBlobs           int           `json:"live_blobs"`      // blobs reachable from a ref
	DeadBlobs           int           `json:"dead_blobs"`      // blobs dropped from segments
	SegmentsBefore      int           `json:"segments_before"` // live segments before
	SegmentsAfter       int           `json:"segments_after"`
	BlobRecords         int           `json:"blob_records_deleted"`          // Badger blob records deleted
	Vectors             int           `json:"vectors_deleted"`               // vectors deleted from Badger (of dropped blobs, other models, or segments no longer live)
	PartsCompacted      int           `json:"parts_compacted"`               // vector parts rewritten without their dead vectors (counted in Vectors)
	LogFiles            int           `json:"log_files_rewritten"`           // Badger value-log files rewritten to reclaim deleted vectors
	Listings            int           `json:"listings_deleted"`              // cached tree listings deleted
	Summaries           int           `json:"summaries_deleted"`             // generated summaries of texts only dead blobs held
	SummaryIndexEntries int           `json:"summary_index_entries_deleted"` // entries dropped from the summary index
	BytesBefore         int64         `json:"bytes_before"`
	BytesAfter          int64         `json:"bytes_after"`
	Elapsed             time.Duration `json:"-"`
}

// GC drops everything no ref reaches: blobs from the segments (those
// holding a dead blob or other models' vectors are rewritten without them,
// small ones merged, and no segment written holds more than the indexer's
// MergeRows rows),
// blob records and vectors from Badger (vectors of other models than the
// indexer's too), generated summaries of texts only dead blobs hold, and
// cached listings of unreachable trees. Refs are HEAD,
// branches, remote branches and tags; keep lists extra trees to retain.
//
// It holds the index lock throughout, so no indexer runs meanwhile, and
// publishes with the manifest like an indexing run: a search sees the old
// segments or the new ones, and an interrupted gc leaves duplicates that
// the next one removes.
func GC(ctx context.Context, idx *indexer.Indexer, lockWait time.Duration, opts Options) (*Summary, error) {
	return (&collector{ix: idx, repo: idx.Repo(), opts: idx.Options()}).gc(ctx, lockWait, opts)
}

// collector is one garbage collection of an indexer's index.
type collector struct {
	ix   *indexer.Indexer
	repo *gitindex.Repo
	opts indexer.Options
}

func (ix *collector) gc(ctx context.Context, lockWait time.Duration, opts Options) (*Summary, error) {
	keep := opts.KeepListings
	start := time.Now()
	dir := ix.repo.IndexDir
	sum := &Summary{BytesBefore: indexer.DirSize(dir)}
	lock, err := storewrite.AcquireLock(ctx, dir, lockWait)
	if err != nil {
		return nil, err
	}
	defer lock.Release()

	trees, err := ix.liveTrees(opts.Reflog)
	if err != nil {
		return nil, err
	}
	sum.Refs = len(trees)
	liveTree := map[plumbing.Hash]bool{}
	for _, t := range append(trees, keep...) {
		liveTree[t] = true
	}
	key := liveKey(trees)
	live, recorded := readLive(dir, key) // blob → a path, for language detection
	if !recorded {
		if live, err = ix.liveBlobs(ctx, trees); err != nil {
			return nil, err
		}
	}
	sum.LiveBlobs = len(live)

	m, err := store.ReadManifest(dir)
	if errors.Is(err, store.ErrNoIndex) {
		return sum, nil
	}
	if err != nil {
		return nil, err
	}
	if !recorded {
		writeLive(dir, key, live)
	}
	sum.SegmentsBefore, sum.SegmentsAfter = len(m.Segments), len(m.Segments)
	vecsBefore := store.VectorRows(dir, m.Segments)
	st, err := storewrite.OpenStore(dir)
	if err != nil {
		return nil, err
	}
	err = ix.sweepSummaries(st, m, live, sum)
	if err == nil {
		err = ix.compact(st, m, live, sum)
	}
	if err == nil {
		err = ix.sweepStore(st, live, vecsBefore, sum)
	}
	if err == nil {
		err = compactParts(st, dir, sum)
	}
	if cerr := st.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		// RewriteLog compacts the tree first, so that the database knows
		// which bytes of its log the deletions left dead.
		if sum.LogFiles, err = storewrite.RewriteLog(dir, m.Segments); err != nil {
			err = fmt.Errorf("gc: %w", err)
		}
	}
	if err != nil {
		return nil, err
	}
	sum.Listings = gitindex.SweepListings(dir, liveTree)
	sum.BytesAfter = indexer.DirSize(dir)
	sum.Elapsed = time.Since(start)
	return sum, nil
}

// liveBlobs lists the blobs trees hold that a search reads, each with a
// path. The trees are read without caching their listings: the cache
// holds the trees queries and indexing runs list, and gc must not leave
// it larger (a repository's tags alone are hundreds of trees); liveFile
// records the answer instead.
func (ix *collector) liveBlobs(ctx context.Context, trees []plumbing.Hash) (map[plumbing.Hash]string, error) {
	live := map[plumbing.Hash]string{}
	err := ix.repo.ReadTrees(ctx, trees, func(l *gitindex.Listing) error {
		for _, e := range l.Entries {
			if _, ok := live[e.Blob]; !ok && gitindex.GrepReads(e.Skip) {
				live[e.Blob] = e.Path
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("gc: %w", err)
	}
	return live, nil
}

// Options tune a garbage collection.
type Options struct {
	// Reflog keeps what the reflogs (HEAD's and every ref's) still name,
	// so that `git checkout HEAD@{3}` stays searchable without reindexing.
	Reflog bool
	// KeepListings are trees whose cached listings are kept even if no ref
	// reaches them (the hooks' next diff base).
	KeepListings []plumbing.Hash
}

// liveTrees returns the root trees of HEAD and every branch, remote branch
// and tag (annotated tags peeled; refs to non-commits ignored), and with
// reflog, of every commit a reflog names.
func (ix *collector) liveTrees(reflog bool) ([]plumbing.Hash, error) {
	seen := map[plumbing.Hash]bool{}
	var out []plumbing.Hash
	add := func(h plumbing.Hash) {
		obj, err := ix.repo.Git.Object(plumbing.AnyObject, h)
		for err == nil {
			if t, ok := obj.(*object.Tag); ok {
				obj, err = t.Object()
				continue
			}
			break
		}
		if c, ok := obj.(*object.Commit); ok && err == nil && !seen[c.TreeHash] {
			seen[c.TreeHash] = true
			out = append(out, c.TreeHash)
		}
	}
	if head, err := ix.repo.Git.Head(); err == nil {
		add(head.Hash())
	}
	refs, err := ix.repo.Git.References()
	if err != nil {
		return nil, fmt.Errorf("gc: list refs: %w", err)
	}
	err = refs.ForEach(func(r *plumbing.Reference) error {
		if r.Type() == plumbing.HashReference && (r.Name().IsBranch() || r.Name().IsRemote() || r.Name().IsTag()) {
			add(r.Hash())
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("gc: list refs: %w", err)
	}
	if reflog {
		for _, h := range reflogCommits(ix.repo) {
			add(h)
		}
	}
	return out, nil
}

// reflogCommits lists the commits the reflogs name (old and new side of
// every entry), from the common git dir and the worktree's own HEAD log.
func reflogCommits(r *gitindex.Repo) []plumbing.Hash {
	var files []string
	for _, dir := range []string{filepath.Join(r.CommonDir, "logs"), filepath.Join(r.GitDir, "logs")} {
		filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				files = append(files, p)
			}
			return nil
		})
	}
	seen := map[plumbing.Hash]bool{}
	var out []plumbing.Hash
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(b), "\n") {
			fields := strings.Fields(line)
			if len(fields) < 2 {
				continue
			}
			for _, f := range fields[:2] {
				if h := plumbing.NewHash(f); len(f) == 40 && !h.IsZero() && !seen[h] {
					seen[h] = true
					out = append(out, h)
				}
			}
		}
	}
	return out
}

// compact rewrites the segments that hold dead blobs or other models'
// vectors without them and merges the small ones (rewritePlan), writing
// no segment of more than the indexer's MergeRows rows: gc's memory is
// bounded like an indexing run's merges. Postings and vectors are copied,
// not recomputed; only the configured model's vectors are kept. The new
// segments are published with one manifest once all are written; what a
// killed gc wrote before that is an orphan that the next run removes
// first.
func (ix *collector) compact(st *storewrite.Store, m *store.Manifest, live map[plumbing.Hash]string, sum *Summary) error {
	dir := ix.repo.IndexDir
	open := func(id string) (*segment.Table, error) {
		return segment.OpenTable(segment.File(dir, id, segment.ChunksFile))
	}
	keepModel := func(file string) bool {
		return ix.opts.Embedder != nil && file == segment.VectorFileName(ix.opts.Embedder.ID())
	}
	isLive := func(h plumbing.Hash) bool { _, ok := live[h]; return ok }
	segs := make([]segRows, len(m.Segments))
	for i, id := range m.Segments {
		t, err := open(id)
		if err != nil {
			return fmt.Errorf("gc: %w", err)
		}
		segs[i] = segRows{id: id, rows: t.Nrows}
		for b := 0; b < t.Nblobs; b++ {
			if !isLive(t.BlobSHA(b)) {
				segs[i].dead++
			}
		}
		t.Close()
		sum.DeadBlobs += segs[i].dead
		names, err := segment.VectorFiles(dir, id)
		if err != nil {
			return fmt.Errorf("gc: %w", err)
		}
		segs[i].foreign = slices.ContainsFunc(names, func(n string) bool { return !keepModel(n) })
	}
	path := func(h plumbing.Hash) (string, bool) { p, ok := live[h]; return p, ok }
	drop, parts, err := rewritePlan(segs, open, path, ix.ix.MergeRows())
	if err != nil {
		return fmt.Errorf("gc: %w", err)
	}
	if len(drop) == 0 {
		return nil
	}
	// What a killed run wrote under the segment IDs the rewrite takes.
	ix.ix.RemoveOrphans(m)
	orphans, err := st.DeleteOrphanVectors(m.Segments)
	if err != nil {
		return fmt.Errorf("gc: %w", err)
	}
	sum.Vectors += orphans
	if err := ix.ix.RewriteSegments(st, m, drop, parts, keepModel); err != nil {
		return fmt.Errorf("gc: rewrite segments: %w", err)
	}
	sum.SegmentsAfter = len(m.Segments)
	return nil
}

// compactParts rewrites the vector parts the live segments name without
// the vectors none of them uses (storewrite.CompactParts): the parts of
// merged or dropped segments that a live one still shares.
func compactParts(st *storewrite.Store, dir string, sum *Summary) error {
	m, err := store.ReadManifest(dir)
	if err != nil {
		return err
	}
	c, err := st.CompactParts(dir, m.Segments)
	sum.PartsCompacted += c.Parts
	sum.Vectors += c.Dropped
	if err != nil {
		return fmt.Errorf("gc: %w", err)
	}
	return nil
}

// sweepStore deletes blob records of dead blobs and the vectors of
// segments that are no longer live (what a killed run or a repair left).
func (ix *collector) sweepStore(st *storewrite.Store, live map[plumbing.Hash]string, vecsBefore int, sum *Summary) error {
	m, err := store.ReadManifest(ix.repo.IndexDir)
	if err != nil {
		return err
	}
	var dead [][]byte
	err = st.DB.View(func(txn *badger.Txn) error {
		it := txn.NewIterator(badger.IteratorOptions{PrefetchValues: false, Prefix: store.PrefBlob})
		defer it.Close()
		for it.Rewind(); it.Valid(); it.Next() {
			k := it.Item().KeyCopy(nil)
			if len(k) != len(store.PrefBlob)+20 {
				continue
			}
			if _, ok := live[plumbing.Hash(k[len(store.PrefBlob):])]; !ok {
				dead = append(dead, k)
				sum.BlobRecords++
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("gc: scan store: %w", err)
	}
	if err := st.DeleteKeys(dead); err != nil {
		return fmt.Errorf("gc: delete: %w", err)
	}
	orphans, err := st.DeleteOrphanVectors(m.Segments)
	if err != nil {
		return fmt.Errorf("gc: %w", err)
	}
	sum.Vectors += max(0, vecsBefore-store.VectorRows(ix.repo.IndexDir, m.Segments)) + orphans
	return nil
}
