package indexer

import (
	"context"
	"errors"
	"runtime"
	"time"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/bcindex/bcindex/chunk"
	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/indexing"
	"github.com/bcindex/bcindex/store"
	"github.com/bcindex/bcindex/store/storewrite"
)

// MaxExactSize is the largest blob whose trigrams and bytes are indexed;
// exact search reads a larger one from git, on every search that reads
// it. The largest generated sources met (tree-sitter's parser.c of C# and
// OCaml) are 33 MB.
const MaxExactSize = 64 << 20

// DefaultMaxFileSize is the largest blob indexed unless configured otherwise.
const DefaultMaxFileSize = 1 << 20

// Options configure an indexing run.
type Options struct {
	MaxFileSize     int64          // 0: DefaultMaxFileSize
	Workers         int            // 0: GOMAXPROCS
	Embedder        embed.Embedder // nil: no vectors (vector arm off)
	Progress        Progress       // nil: silent
	CheckpointBlobs int            // publish a segment every N blobs; 0: 4000
	CheckpointEvery time.Duration  // with a remote embedder (calls across blobs), also this often; 0: 20s
	// EmbedBatch bounds the inputs of one embedding call. Blobs hand
	// their chunks to a stage that fills each call with the chunks of many
	// blobs: up to the limits of an embedder that has them (embed.Limited:
	// a remote provider then gets full requests, not one per blob) or up
	// to EmbedBatch when it is above 1. 1: every blob is embedded on its
	// own; 0: the embedder's limits, if any.
	EmbedBatch int
	// Shared are chunk lists of blobs verified against their content (a
	// fetched shared index): those blobs are not parsed again.
	Shared map[plumbing.Hash][]chunk.Chunk
	// SharedVectors are the vectors the same share carries, by content
	// hash, for the configured model.
	SharedVectors map[[16]byte]SharedVector
	// ChangeTables, when set, brings a tip's tables of first-parent
	// changes up to date (the pickaxe's); IndexHistory runs it beside the
	// indexing when the history it walks reaches a root commit.
	ChangeTables func(ctx context.Context, tip plumbing.Hash) error
	// MergeRows bounds the rows of a segment that a merge writes, the
	// indexer's merges of small segments and gc's rewrites alike, and so
	// their memory (about 1 KB of heap a row); segments of half as many
	// rows or more are left as they are. 0: 524,288 (tests set it low).
	MergeRows int
}

// Progress, Summary, Parts and Request are the front ends' vocabulary of
// an indexing run (package indexing, which needs no parser).
type (
	Progress = indexing.Progress
	Summary  = indexing.Summary
	Parts    = indexing.Parts
	Request  = indexing.Request
)

// What a front end reads (indexing.Parts).
const (
	None  = indexing.None
	Exact = indexing.Exact
	All   = indexing.All
)

// Indexer indexes revisions of one repository.
type Indexer struct {
	repo *gitindex.Repo
	opts Options
	// embedAcross: blobs leave their chunks' embedding to a stage that
	// fills each call with the chunks of many blobs (see embedStage).
	embedAcross bool
	// stored finds vectors stored for a chunk's content (vecindex.go).
	stored *storedVectors
	// seen, when set, carries the blobs already counted across the runs
	// of one history index (IndexHistory), so that Summary.Blobs counts
	// each distinct blob once.
	seen map[plumbing.Hash]bool
	// textOf, when set, holds the only blobs whose bytes the segments keep
	// for exact search (a history index: its tips' blobs); the others are
	// read from git's pack, which stores them as deltas.
	textOf map[plumbing.Hash]bool
	// reclaimLog, set for the last run of a history index, makes the
	// run's tidy reclaim the value log's dead bytes past the floor
	// whatever their share (tidyLog).
	reclaimLog bool
	// shared finds the vectors the live segments store, by vector file
	// (sharevec.go).
	shared map[string]*shareTable
}

// keepsText reports whether the segment keeps blob sha's bytes.
func (ix *Indexer) keepsText(sha plumbing.Hash) bool {
	return ix.textOf == nil || ix.textOf[sha]
}

// NewIndexer prepares an indexer; nothing is opened until Index.
func NewIndexer(repo *gitindex.Repo, opts Options) *Indexer {
	if opts.MaxFileSize <= 0 {
		opts.MaxFileSize = DefaultMaxFileSize
	}
	if opts.Workers <= 0 {
		opts.Workers = runtime.GOMAXPROCS(0)
	}
	if opts.CheckpointBlobs <= 0 {
		opts.CheckpointBlobs = 4000
	}
	if opts.CheckpointEvery <= 0 {
		opts.CheckpointEvery = 20 * time.Second
	}
	return &Indexer{repo: repo, opts: opts}
}

type todoBlob struct {
	sha  plumbing.Hash
	path string
	prev plumbing.Hash // the indexed blob this one's path had before an edit, or zero
	// pathSkip is the path's skip reason for a file only exact search
	// reads (vendored, say): the blob gets trigrams, not chunks.
	pathSkip string
}

// Index makes the given revisions searchable, processing only blobs that no
// segment holds yet. It takes the index lock, waiting up to lockWait for a
// running indexer. On cancellation the blobs finished so far are published,
// so the next run resumes where this one stopped.
func (ix *Indexer) Index(ctx context.Context, revs []string, lockWait time.Duration) (*Summary, error) {
	start := time.Now()
	commits := make([]gitindex.Commit, 0, len(revs))
	for _, rev := range revs {
		c, err := ix.repo.Resolve(rev)
		if err != nil {
			return nil, err
		}
		commits = append(commits, c)
	}
	return ix.index(ctx, commits, func(each func(*gitindex.Listing, *gitindex.TreeDiff) error) error {
		for _, c := range commits {
			l, d, err := ix.repo.CommitListingDiff(ctx, c)
			if err != nil {
				return err
			}
			if err := each(l, d); err != nil {
				return err
			}
		}
		return nil
	}, lockWait, start)
}

// IndexListing makes the blobs of a listing that is no commit's tree (the
// working tree with its changes) searchable; its blobs must be in the object
// database.
func (ix *Indexer) IndexListing(ctx context.Context, l *gitindex.Listing, lockWait time.Duration) (*Summary, error) {
	return ix.index(ctx, nil, func(each func(*gitindex.Listing, *gitindex.TreeDiff) error) error { return each(l, nil) }, lockWait, time.Now())
}

// listFunc calls each with every listing to index, in order, and the tree
// diff it was derived by when known (nil otherwise), and stops at the first
// error each returns. A listing is not kept once each returns: a history's
// batch of commits holds one listing at a time, not all of them.
type listFunc func(each func(*gitindex.Listing, *gitindex.TreeDiff) error) error

// index processes the blobs of the listings list yields that no segment
// holds yet, under the index lock.
func (ix *Indexer) index(ctx context.Context, commits []gitindex.Commit, list listFunc, lockWait time.Duration, start time.Time) (*Summary, error) {
	lock, err := storewrite.AcquireLock(ctx, ix.repo.IndexDir, lockWait)
	if err != nil {
		return nil, err
	}
	defer lock.Release()

	sum := &Summary{Commits: commits, Skipped: map[string]int{}}
	// Set after the store and the snapshot are closed (deferred below,
	// so run before this): the run's whole time but the lock's release.
	defer func() { sum.Elapsed = time.Since(start) }()
	// Once the store is closed, under the lock: a value log grown past a
	// few files, or mostly dead after merges, is reclaimed. Best effort; the next run tries again.
	defer ix.tidyLog()
	if sum.Repaired, err = storewrite.SetDamagedAside(ix.repo.IndexDir); err != nil {
		return nil, err
	}
	// An index written by an older schema is derived data: rebuild it rather
	// than fail every run (hooks included) until someone passes --rebuild.
	if old, err := store.DecodeManifest(ix.repo.IndexDir); err == nil && old.Schema < store.SchemaVersion {
		if err := storewrite.RemoveIndexData(ix.repo.IndexDir); err != nil {
			return nil, err
		}
		sum.RebuiltFrom = old.Schema
	}
	var st *storeFuture
	if len(commits) > 0 && !listedAll(ix.repo.IndexDir, commits) {
		st = openStoreAsync(ix.repo.IndexDir)
		defer st.close()
	}
	var todo []todoBlob
	seen := ix.seen
	if seen == nil {
		seen = map[plumbing.Hash]bool{}
	}
	// With the model's vectors, so that a damaged vector file is found
	// (and its segment indexed again) here, not only by searches.
	model := ""
	if ix.opts.Embedder != nil {
		model = ix.opts.Embedder.ID()
	}
	snap, err := store.OpenSnapshot(ix.repo.IndexDir, model)
	if errors.Is(err, store.ErrNoIndex) {
		snap, err = &store.Snapshot{}, nil
	}
	if err != nil {
		return nil, err
	}
	defer snap.Close()
	// Skip counts are the revisions' and the same on every run, as status
	// reports them: a file skipped by its path counts once however many
	// of the revisions hold it, one skipped by its content (binary, a
	// generated header) once per blob, read from the blob's record when
	// it is indexed already (the writer counts the new ones).
	skippedFiles := map[string]bool{}
	err = list(func(l *gitindex.Listing, d *gitindex.TreeDiff) error {
		var previous map[string]plumbing.Hash
		if d != nil {
			previous = d.Previous
		}
		for _, e := range l.Entries {
			sum.Files++
			if e.Skip != gitindex.SkipNone {
				if key := e.Path + "\x00" + e.Blob.String(); !skippedFiles[key] {
					skippedFiles[key] = true
					sum.Skipped[e.Skip]++
				}
				if gitindex.GrepReads(e.Skip) && !seen[e.Blob] {
					seen[e.Blob] = true
					if _, ok := snap.FindBlob(e.Blob); !ok {
						todo = append(todo, todoBlob{sha: e.Blob, path: e.Path, pathSkip: e.Skip})
					}
				}
				continue
			}
			if seen[e.Blob] {
				continue
			}
			seen[e.Blob] = true
			sum.Blobs++
			if loc, ok := snap.FindBlob(e.Blob); ok {
				sum.BlobsReused++
				seg := snap.Segments[loc.Seg]
				if skip := seg.Table.BlobInfo(seg.BlobIndex(loc.First, e.Blob)).Skip; skip != gitindex.SkipNone {
					sum.Skipped[skip]++
				}
				continue
			}
			t := todoBlob{sha: e.Blob, path: e.Path}
			if prev, ok := previous[e.Path]; ok && chunk.Editable(e.Path) {
				if _, ok := snap.FindBlob(prev); ok {
					t.prev = prev
				}
			}
			todo = append(todo, t)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	m, err := store.ReadManifest(ix.repo.IndexDir)
	if errors.Is(err, store.ErrNoIndex) {
		m, err = &store.Manifest{Schema: store.SchemaVersion, Next: 1}, nil
	}
	if err != nil {
		return nil, err
	}
	dropDamaged(m, snap, sum)
	backfill := ix.segmentsWithoutVectors(m)
	if len(todo) == 0 && len(backfill) == 0 {
		if len(m.Segments) == 0 && m.Next == 1 || len(snap.Damaged) > 0 {
			// Publish an empty manifest so that an empty revision counts as indexed.
			if err := storewrite.WriteManifest(ix.repo.IndexDir, m); err != nil {
				return nil, err
			}
		}
		return sum, nil
	}
	ix.removeOrphans(m)
	if st == nil {
		st = openStoreAsync(ix.repo.IndexDir)
		defer st.close()
	}
	if len(backfill) > 0 {
		s, err := st.get()
		if err != nil {
			return nil, err
		}
		if err := ix.backfillVectors(ctx, s, m, sum); err != nil {
			return sum, err
		}
	}
	if len(todo) > 0 {
		err = ix.run(ctx, st, snap, m, todo, sum)
	}
	return sum, err
}
