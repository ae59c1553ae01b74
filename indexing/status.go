package indexing

import (
	"errors"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/gofrs/flock"

	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/segment"
	"github.com/bcindex/bcindex/store"
)

// Status describes how far the index covers one revision.
type Status struct {
	Rev        string `json:"rev"`
	Commit     string `json:"commit"`
	Indexed    bool   `json:"indexed"` // every blob of the revision is searchable
	Files      int    `json:"files"`
	Blobs      int    `json:"blobs"`
	Pending    int    `json:"pending_blobs"`
	Chunks     int    `json:"chunks"`
	Vectors    int    `json:"chunks_with_vectors"` // for Model
	Embeddable int    `json:"chunks_embeddable"`   // chunks that get a vector (not empty ones)
	// VectorsByModel is the coverage of every model with vectors in the
	// index: after a switch of model the old one still shows, until gc.
	VectorsByModel []store.ModelCoverage `json:"vectors_by_model"`
	Skipped        map[string]int        `json:"skipped"`
	Segments       int                   `json:"segments"`
	StoreBytes     int64                 `json:"store_bytes"`
	// StoreParts is where StoreBytes go, by component.
	StoreParts *store.Parts `json:"store_parts"`
	Model      string       `json:"model"`
	Schema     int          `json:"schema"`
	IndexDir   string       `json:"index_dir"`
	// VectorsMissing is set when some chunks lack vectors of Model (it was
	// switched): the next search or index computes them.
	VectorsMissing bool   `json:"vectors_missing"`
	ModelLabel     string `json:"-"`        // Model as VectorsByModel names it
	Indexing       bool   `json:"indexing"` // an indexer holds the lock now
	// Damaged says what of the index database fails its checksums ("" when
	// sound, or not checked while an indexer runs): the next index run
	// sets it aside and rebuilds from git.
	Damaged string `json:"damaged,omitempty"`
	Hooks   bool   `json:"hooks_installed"` // set by the caller: git hooks keep the index fresh
}

// StatusOf reports the index's coverage of rev without modifying the index
// beyond caching the revision's tree listing.
func StatusOf(r *gitindex.Repo, rev, model string) (*Status, error) {
	c, err := r.Resolve(rev)
	if err != nil {
		return nil, err
	}
	st := &Status{Rev: c.Rev, Commit: c.Hash.String(), Model: model, Schema: store.SchemaVersion, IndexDir: r.IndexDir, Skipped: map[string]int{}}
	st.StoreBytes = DirSize(r.IndexDir)
	st.StoreParts = store.StoreParts(r.IndexDir)
	fl := flock.New(filepath.Join(r.IndexDir, "index.lock"))
	if ok, err := fl.TryRLock(); err == nil {
		if ok {
			// Held shared, the lock keeps an indexer from rewriting the
			// tables while they are read.
			if err := store.CheckBadger(filepath.Join(r.IndexDir, "db"), false); errors.Is(err, store.ErrCorrupt) {
				st.Damaged = strings.TrimPrefix(err.Error(), store.ErrCorrupt.Error()+": ")
			}
			fl.Unlock()
		} else {
			st.Indexing = true
		}
	}
	snap, err := store.OpenSnapshot(r.IndexDir, model)
	if errors.Is(err, store.ErrNoIndex) {
		snap, err = &store.Snapshot{}, nil
	}
	if err != nil {
		return nil, err
	}
	defer snap.Close()
	st.Segments = len(snap.Segments)
	l, err := r.Listing(c.Tree)
	if err != nil {
		return nil, err
	}
	seen := map[plumbing.Hash]bool{}
	rowsBySeg := map[string]int{}
	for _, e := range l.Entries {
		st.Files++
		if e.Skip != gitindex.SkipNone {
			st.Skipped[e.Skip]++
			continue
		}
		if seen[e.Blob] {
			continue
		}
		seen[e.Blob] = true
		st.Blobs++
		loc, ok := snap.FindBlob(e.Blob)
		if !ok {
			st.Pending++
			continue
		}
		seg := snap.Segments[loc.Seg]
		if skip := seg.Table.BlobInfo(seg.BlobIndex(loc.First, e.Blob)).Skip; skip != gitindex.SkipNone {
			st.Skipped[skip]++
		}
		st.Chunks += loc.N
		for row := loc.First; row < loc.First+loc.N; row++ {
			if _, indexed := seg.RowHash(row); indexed {
				st.Embeddable++
				rowsBySeg[seg.ID]++
				if seg.Vec != nil {
					st.Vectors++
				}
			}
		}
	}
	st.VectorsByModel = store.VectorCoverage(r.IndexDir, rowsBySeg)
	_, serr := store.ReadManifest(r.IndexDir)
	st.Indexed = st.Pending == 0 && serr == nil
	st.VectorsMissing = model != "" && st.Vectors < st.Embeddable
	st.ModelLabel = segment.VectorFileLabel(segment.VectorFileName(model))
	return st, nil
}

// DirSize is the disk space used under dir: allocated blocks, not apparent
// sizes, since Badger preallocates sparse value-log files.
func DirSize(dir string) int64 {
	var n int64
	filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if fi, err := d.Info(); err == nil {
				n += store.Allocated(fi)
			}
		}
		return nil
	})
	return n
}
