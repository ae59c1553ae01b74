package indexer

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"golang.org/x/sync/errgroup"

	"github.com/bcindex/bcindex/chunk"
	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/lexical"
	"github.com/bcindex/bcindex/store"
	"github.com/bcindex/bcindex/vector"
)

// DefaultMaxFileSize is the largest blob indexed unless configured otherwise.
const DefaultMaxFileSize = 1 << 20

// Progress receives indexing progress. Implementations must be safe for use
// from one goroutine at a time (the indexer calls them from one).
type Progress interface {
	Start(totalBlobs int)
	Add(blobs int, bytes int64)
	Finish()
}

// Options configure an indexing run.
type Options struct {
	MaxFileSize     int64          // 0: DefaultMaxFileSize
	Workers         int            // 0: GOMAXPROCS
	Embedder        embed.Embedder // nil: no vectors (vector arm off)
	Progress        Progress       // nil: silent
	CheckpointBlobs int            // publish a segment every N blobs; 0: 4000
	CheckpointEvery time.Duration  // and at least this often; 0: 20s
	// EmbedBatch, when above 1, merges the embedding inputs of blobs
	// processed at the same time into calls of up to this many inputs (see
	// embed.Coalescer): a remote provider then gets a request per batch of
	// blobs instead of one per blob.
	EmbedBatch int
	// Shared are chunk lists of blobs verified against their content (a
	// fetched shared index): those blobs are not parsed again.
	Shared map[plumbing.Hash][]chunk.Chunk
}

// Summary reports what an indexing run did.
type Summary struct {
	Commits       []gitindex.Commit `json:"-"`
	Files         int               `json:"files"`                         // file entries across the listed trees
	Blobs         int               `json:"blobs"`                         // distinct blobs to be searchable
	BlobsNew      int               `json:"blobs_new"`                     // read and chunked this run
	BlobsReused   int               `json:"blobs_reused"`                  // already in the index
	BlobsEdited   int               `json:"blobs_edited"`                  // of the new ones, chunked by parsing only what an edit touched
	Skipped       map[string]int    `json:"skipped"`                       // files (path rules) and new blobs (content rules) by reason
	Chunks        int               `json:"chunks"`                        // chunks written this run
	Embedded      int               `json:"embedded"`                      // chunk vectors computed this run
	VectorsReused int               `json:"vectors_reused"`                // chunk vectors found by content hash
	SyntaxErrors  int               `json:"syntax_error_files"`            // files with syntax errors, minor or severe
	SevereErrors  int               `json:"syntax_error_files_severe"`     // of those, files whose parse failed (split into windows)
	Fallback      int               `json:"fallback_files"`                // files split into line windows
	Bytes         int64             `json:"bytes"`                         // bytes chunked this run
	RebuiltFrom   int               `json:"rebuilt_from_schema,omitempty"` // the older schema of the index this run replaced
	Repaired      string            `json:"repaired,omitempty"`            // why this run set a damaged database aside and rebuilt
	Elapsed       time.Duration     `json:"-"`
}

// Indexer indexes revisions of one repository.
type Indexer struct {
	repo *gitindex.Repo
	opts Options
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
	return ix.index(ctx, commits, func() ([]*gitindex.Listing, []*gitindex.TreeDiff, error) {
		ls := make([]*gitindex.Listing, len(commits))
		ds := make([]*gitindex.TreeDiff, len(commits))
		for i, c := range commits {
			l, d, err := ix.repo.CommitListingDiff(ctx, c)
			if err != nil {
				return nil, nil, err
			}
			ls[i], ds[i] = l, d
		}
		return ls, ds, nil
	}, lockWait, start)
}

// IndexListing makes the blobs of a listing that is no commit's tree (the
// working tree with its changes) searchable; its blobs must be in the object
// database.
func (ix *Indexer) IndexListing(ctx context.Context, l *gitindex.Listing, lockWait time.Duration) (*Summary, error) {
	return ix.index(ctx, nil, func() ([]*gitindex.Listing, []*gitindex.TreeDiff, error) { return []*gitindex.Listing{l}, nil, nil }, lockWait, time.Now())
}

// index processes the blobs of the listings that no segment holds yet,
// under the index lock.
// list returns the listings to index and, where known, the tree diffs they
// were derived by.
func (ix *Indexer) index(ctx context.Context, commits []gitindex.Commit, list func() ([]*gitindex.Listing, []*gitindex.TreeDiff, error), lockWait time.Duration, start time.Time) (*Summary, error) {
	lock, err := store.AcquireLock(ctx, ix.repo.IndexDir, lockWait)
	if err != nil {
		return nil, err
	}
	defer lock.Release()

	sum := &Summary{Commits: commits, Skipped: map[string]int{}}
	if sum.Repaired, err = store.SetDamagedAside(ix.repo.IndexDir); err != nil {
		return nil, err
	}
	// An index written by an older schema is derived data: rebuild it rather
	// than fail every run (hooks included) until someone passes --rebuild.
	if old, err := store.DecodeManifest(ix.repo.IndexDir); err == nil && old.Schema < store.SchemaVersion {
		if err := store.RemoveIndexData(ix.repo.IndexDir); err != nil {
			return nil, err
		}
		sum.RebuiltFrom = old.Schema
	}
	listings, diffs, err := list()
	if err != nil {
		return nil, err
	}
	var todo []todoBlob
	seen := map[plumbing.Hash]bool{}
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
	for li, l := range listings {
		var previous map[string]plumbing.Hash
		if li < len(diffs) && diffs[li] != nil {
			previous = diffs[li].Previous
		}
		for _, e := range l.Entries {
			sum.Files++
			if e.Skip != gitindex.SkipNone {
				sum.Skipped[e.Skip]++
				continue
			}
			if seen[e.Blob] {
				continue
			}
			seen[e.Blob] = true
			sum.Blobs++
			if _, ok := snap.FindBlob(e.Blob); ok {
				sum.BlobsReused++
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
			if err := store.WriteManifest(ix.repo.IndexDir, m); err != nil {
				return nil, err
			}
		}
		sum.Elapsed = time.Since(start)
		return sum, nil
	}
	ix.removeOrphans(m)
	st := openStoreAsync(ix.repo.IndexDir)
	defer st.close()
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
	sum.Elapsed = time.Since(start)
	return sum, err
}

// storeFuture is the store being opened in the background: an indexing run
// reads and chunks its first blobs meanwhile, and waits for the store only
// to look vectors up and to write.
type storeFuture struct {
	ready chan struct{}
	store *store.Store
	err   error
}

func openStoreAsync(indexDir string) *storeFuture {
	f := &storeFuture{ready: make(chan struct{})}
	go func() {
		f.store, f.err = store.OpenStore(indexDir)
		close(f.ready)
	}()
	return f
}

// get waits for the store to be open.
func (f *storeFuture) get() (*store.Store, error) {
	<-f.ready
	return f.store, f.err
}

// close closes the store once it is open.
func (f *storeFuture) close() {
	if s, err := f.get(); err == nil {
		s.Close()
	}
}

// removeOrphans deletes segment directories that no manifest names: leftovers
// of a run that was killed before publishing. Readers only open segments the
// manifest names, and we hold the lock, so this is safe.
func (ix *Indexer) removeOrphans(m *store.Manifest) {
	live := map[string]bool{}
	for _, id := range m.Segments {
		live[id] = true
	}
	entries, _ := os.ReadDir(filepath.Join(ix.repo.IndexDir, "segments"))
	for _, e := range entries {
		if e.IsDir() && !live[e.Name()] {
			os.RemoveAll(filepath.Join(ix.repo.IndexDir, "segments", e.Name()))
		}
	}
}

// blobResult is one processed blob, ready to be written.
type blobResult struct {
	sha      plumbing.Hash
	size     int
	rec      *store.BlobRecord
	tokens   [][]string       // per chunk; nil when not indexed
	vectors  [][]int8         // per chunk; nil when none
	scales   []float32        // per chunk
	newVecs  map[[16]byte]int // content hash → chunk index, for vectors computed by this blob
	embedded int
	reused   int
	spliced  bool // chunked by chunk.Edit from the previous version
}

// Merged embedding calls (Options.EmbedBatch): how long a blob's inputs
// wait for others, and how many merged calls run at once.
const (
	embedWindow        = 20 * time.Millisecond
	embedCallsInFlight = 4
)

// run processes todo; snap holds the blobs the todo's prev fields name.
func (ix *Indexer) run(ctx context.Context, st *storeFuture, snap *store.Snapshot, m *store.Manifest, todo []todoBlob, sum *Summary) error {
	if p := ix.opts.Progress; p != nil {
		p.Start(len(todo))
		defer p.Finish()
	}
	type job struct {
		todoBlob
		content []byte
		size    int64
		prev    *prevVersion
	}
	jobs := make(chan job, ix.opts.Workers*4)
	results := make(chan *blobResult, ix.opts.Workers*4)
	g, gctx := errgroup.WithContext(ctx)
	// One reader: go-git's object access is not meant for concurrent use, and
	// reading is several times faster than parsing.
	g.Go(func() error {
		defer close(jobs)
		for _, t := range todo {
			content, size, err := ix.repo.ReadBlobUpTo(t.sha, ix.opts.MaxFileSize)
			if err != nil {
				return err
			}
			j := job{todoBlob: t, size: size, content: content}
			if !t.prev.IsZero() {
				// Best effort: without it the blob is chunked from scratch.
				if pc, psize, err := ix.repo.ReadBlobUpTo(t.prev, ix.opts.MaxFileSize); err == nil && int64(len(pc)) == psize {
					j.prev = &prevVersion{sha: t.prev, content: pc}
				}
			}
			select {
			case jobs <- j:
			case <-gctx.Done():
				return nil
			}
		}
		return nil
	})
	// Workers embed through rix, whose embedder may merge their calls.
	rix := ix
	if emb := ix.opts.Embedder; emb != nil && ix.opts.EmbedBatch > 1 {
		c := embed.NewCoalescer(emb, ix.opts.EmbedBatch, embedCallsInFlight, embedWindow)
		defer c.Close()
		rix = &Indexer{repo: ix.repo, opts: ix.opts}
		rix.opts.Embedder = c
	}
	var wg sync.WaitGroup
	for w := 0; w < ix.opts.Workers; w++ {
		wg.Add(1)
		g.Go(func() error {
			defer wg.Done()
			for j := range jobs {
				r, err := rix.process(gctx, st, snap, j.prev, j.sha, j.path, j.content, j.size)
				if err != nil {
					return err
				}
				select {
				case results <- r:
				case <-gctx.Done():
					return nil
				}
			}
			return nil
		})
	}
	go func() { wg.Wait(); close(results) }()

	var w *runWriter
	s, werr := st.get()
	if werr == nil {
		w = newRunWriter(ix, s, m)
	}
	for r := range results {
		if werr != nil {
			continue // drain
		}
		werr = w.add(r, sum)
		// Publishing now and then bounds what a killed run loses.
		if werr == nil && (w.pending >= ix.opts.CheckpointBlobs || w.pending > 0 && time.Since(w.published) >= ix.opts.CheckpointEvery) {
			werr = w.publish()
		}
		if p := ix.opts.Progress; p != nil {
			p.Add(1, int64(r.size))
		}
	}
	gerr := g.Wait()
	// Publish whatever finished, even when cancelled: the next run resumes.
	if werr == nil {
		werr = w.publish()
	}
	if werr != nil {
		return werr
	}
	if gerr != nil {
		return gerr
	}
	return ctx.Err()
}

// usableShared reports whether a shared chunk list can stand for Split's:
// files with syntax errors or split into windows record facts (the error
// count, the fallback) that a share does not carry, so they are parsed.
func usableShared(chunks []chunk.Chunk) bool {
	if len(chunks) == 0 || chunks[0].Kind != chunk.KindFile {
		return false
	}
	for _, c := range chunks {
		if c.SyntaxError || c.Kind == chunk.KindWindow {
			return false
		}
	}
	return true
}

// prevVersion is the indexed version of a file before an edit.
type prevVersion struct {
	sha     plumbing.Hash
	content []byte
}

// process chunks one blob, tokenises and embeds its chunks. With the
// previous version of the file (prev, whose rows snap holds), only what the
// edit touched is parsed again when chunk.Edit can do so.
func (ix *Indexer) process(ctx context.Context, sf *storeFuture, snap *store.Snapshot, prev *prevVersion, sha plumbing.Hash, path string, content []byte, size int64) (*blobResult, error) {
	r := &blobResult{sha: sha, size: int(size), rec: &store.BlobRecord{ChunkerVersion: chunk.Version, Size: size}}
	if skip := contentSkip(content, size, ix.opts.MaxFileSize); skip != gitindex.SkipNone {
		r.rec.Skip = skip
		return r, nil
	}
	f, ok := chunk.File{}, false
	if prev != nil {
		if pf, found := snap.BlobFile(prev.sha); found {
			// The docs of the previous rows are clipped as segments store
			// them; the chunks Edit keeps carry them clipped, and the
			// segment writer clips them the same way.
			f, ok = chunk.Edit(path, content, prev.content, pf)
		}
	}
	if ok {
		// Only chunks this chunker version made are a base for an edit.
		st, err := sf.get()
		if err != nil {
			return nil, err
		}
		ok = ix.sameChunker(st, prev.sha)
	}
	if sc, found := ix.opts.Shared[sha]; !ok && found && usableShared(sc) {
		f = chunk.FromShared(path, content, append([]chunk.Chunk(nil), sc...))
	} else if !ok {
		f = chunk.Split(path, content)
	}
	r.spliced = ok
	r.rec.Language, r.rec.Fallback, r.rec.SyntaxErrors = f.Language, f.Fallback, f.SyntaxErrors
	n := len(f.Chunks)
	r.rec.Chunks = make([]store.ChunkRecord, n)
	r.tokens = make([][]string, n)
	r.vectors = make([][]int8, n)
	r.scales = make([]float32, n)
	texts := make([]string, n)
	var keys [][]byte
	var keyChunk []int
	for i, c := range f.Chunks {
		text := chunk.IndexText(content, f, i)
		cr := store.ChunkRecord{Kind: c.Kind, Name: c.Name, Signature: c.Signature, Parent: c.Parent,
			StartLine: c.StartLine, EndLine: c.EndLine, StartByte: c.StartByte, EndByte: c.EndByte, SyntaxError: c.SyntaxError,
			Meta: store.Meta{Doc: c.Doc, QualifiedName: c.QualifiedName, Access: c.Access, Decorators: c.Decorators, Imports: c.Imports, ErrorDetail: c.ErrorDetail}}
		if strings.TrimSpace(text) != "" {
			cr.Hash = store.ContentHash(text)
			texts[i] = text
			// The name counts twice: once here, once in the text, so definitions
			// named like the query outrank chunks that merely mention it.
			r.tokens[i] = append(lexical.Tokens(c.Name), lexical.Tokens(text)...)
			if ix.opts.Embedder != nil {
				keys = append(keys, vector.Key(ix.opts.Embedder.ID(), cr.Hash[:]))
				keyChunk = append(keyChunk, i)
			}
		}
		r.rec.Chunks[i] = cr
	}
	// Vectors of chunks whose text an indexed blob already had are reused.
	// The store may have been opening while this blob was read and chunked.
	st, err := sf.get()
	if err != nil {
		return nil, err
	}
	err = st.GetEach(keys, func(k int, v []byte) error {
		if q, s, err := vector.Decode(v); err == nil {
			i := keyChunk[k]
			r.vectors[i], r.scales[i] = q, s // Decode copies out of the transaction
			r.reused++
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	var need []int
	var needTexts, sigs []string
	for _, i := range keyChunk {
		if r.vectors[i] == nil {
			need = append(need, i)
			needTexts = append(needTexts, texts[i])
			sigs = append(sigs, f.Chunks[i].Signature)
		}
	}
	if len(need) > 0 {
		vecs, err := embedChunks(ctx, ix.opts.Embedder, needTexts, sigs)
		if err != nil {
			return nil, fmt.Errorf("embed %s (blob %s): %w", path, sha, err)
		}
		if len(vecs) != len(need) {
			return nil, fmt.Errorf("embed %s: %d vectors for %d inputs", path, len(vecs), len(need))
		}
		r.newVecs = map[[16]byte]int{}
		for k, i := range need {
			r.vectors[i], r.scales[i] = vector.Quantize(vecs[k])
			r.newVecs[r.rec.Chunks[i].Hash] = i
		}
		r.embedded = len(need)
	}
	return r, nil
}

// sameChunker reports whether the indexed blob sha was chunked by this
// chunker version: chunks an older version made are no base for an edit,
// whose result must be what chunk.Split makes now.
func (ix *Indexer) sameChunker(st *store.Store, sha plumbing.Hash) bool {
	rec, err := st.Blob(sha)
	return err == nil && rec != nil && rec.ChunkerVersion == chunk.Version
}

// contentSkip decides from the content whether a blob is indexed.
func contentSkip(content []byte, size, max int64) string {
	if size > max {
		return gitindex.SkipTooLarge
	}
	head := content[:min(len(content), 8000)]
	if bytes.IndexByte(head, 0) >= 0 {
		return gitindex.SkipBinary
	}
	top := head[:min(len(head), 1024)]
	if (bytes.Contains(top, []byte("Code generated")) && bytes.Contains(top, []byte("DO NOT EDIT"))) || bytes.Contains(top, []byte("@generated")) {
		return gitindex.SkipGenerated
	}
	if len(content) > 20000 && bytes.Count(content, []byte{'\n'}) < len(content)/1000 {
		return gitindex.SkipMinified
	}
	return gitindex.SkipNone
}
