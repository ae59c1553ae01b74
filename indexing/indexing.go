package indexing

import (
	"context"
	"time"

	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/store"
)

// Ensure brings the index of r.Want up to date for r.Parts and opens it
// read-only: the one call a front end (the MCP tools, the web pages) makes
// before it reads. The command that links the parser builds it
// (indexer.Ensurer) and hands it to the front ends, which so link no
// parser. The summary is the indexing run's, nil when none ran.
type Ensure func(ctx context.Context, repo *gitindex.Repo, r Request) (*store.View, *Summary, error)

// Progress receives indexing progress. Implementations must be safe for use
// from one goroutine at a time (the indexer calls them from one).
type Progress interface {
	Start(totalBlobs int)
	Add(blobs int, bytes int64)
	Finish()
}

// HistoryProgress is a Progress that also follows the commits of a
// history index (IndexHistory runs its commits in batches, each one an
// indexing run that calls Start and Finish): Commits is called before the
// first batch and after each, with the commits done so far, of total, and
// the summary of the batches done so far.
type HistoryProgress interface {
	Progress
	Commits(done, total int, sum *Summary)
	// Tables is called once the commits are done, before the tables of
	// the history's changes are recorded (a history that reaches its
	// first commit): a minute or more on a long one.
	Tables()
}

// Summary reports what an indexing run did.
type Summary struct {
	Commits       []gitindex.Commit `json:"-"`
	Files         int               `json:"files"`                            // file entries across the listed trees
	Blobs         int               `json:"blobs"`                            // distinct blobs to be searchable
	BlobsNew      int               `json:"blobs_new"`                        // read and chunked this run
	BlobsReused   int               `json:"blobs_reused"`                     // already in the index
	BlobsEdited   int               `json:"blobs_edited"`                     // of the new ones, chunked by parsing only what an edit touched
	Skipped       map[string]int    `json:"skipped"`                          // files (path rules) and new blobs (content rules) by reason
	Chunks        int               `json:"chunks"`                           // chunks written this run
	Embedded      int               `json:"embedded"`                         // chunk vectors computed this run
	VectorsReused int               `json:"vectors_reused"`                   // chunk vectors found by content hash
	SyntaxErrors  int               `json:"syntax_error_files"`               // files with syntax errors, minor or severe
	SevereErrors  int               `json:"syntax_error_files_severe"`        // of those, files whose parse failed (split into windows)
	Fallback      int               `json:"fallback_files"`                   // files split into line windows
	Bytes         int64             `json:"bytes"`                            // bytes chunked this run
	RebuiltFrom   int               `json:"rebuilt_from_schema,omitempty"`    // the older schema of the index this run replaced
	Repaired      string            `json:"repaired,omitempty"`               // why this run set a damaged database aside and rebuilt
	Resumed       int               `json:"commits_indexed_before,omitempty"` // of a history index's commits, those whose blobs were all indexed before this run
	Elapsed       time.Duration     `json:"-"`
}

// Parts name what a command reads, and so what Ensure brings up to date
// before it reads.
type Parts int

const (
	// None reads what is indexed (--no-index): nothing is indexed first,
	// and what is missing is counted as pending.
	None Parts = iota
	// Exact is what exact search and the pickaxe read: every blob's rows
	// and trigrams. Blobs are indexed without vectors; the next search
	// computes those.
	Exact
	// All is what ranked search reads: the same and the vectors of the
	// configured model, computed for blobs that lack them (a newly
	// configured model too).
	All
)

// Request is what a front end is about to read, and how long it waits
// for another indexer: the one argument of Ensure.
type Request struct {
	Want  store.Want
	Parts Parts
	// NoIndex reads what is indexed (--no-index): Parts None.
	NoIndex  bool
	LockWait time.Duration
	// History, when set, indexes the first-parent history it selects
	// (IndexHistory, as `git bcindex log` reads it) instead of Want
	// alone; Want, part of that history, is then opened as it is.
	History *gitindex.HistoryOptions
	// Progress, when set, receives this call's indexing progress (an MCP
	// client's progress notifications) instead of the indexer's own.
	Progress Progress
}

// Add adds the counts of o, one run of a history index, to s.
func (s *Summary) Add(o *Summary) {
	s.Commits = append(s.Commits, o.Commits...)
	s.Files += o.Files
	s.Blobs += o.Blobs
	s.BlobsNew += o.BlobsNew
	s.BlobsReused += o.BlobsReused
	s.BlobsEdited += o.BlobsEdited
	for k, v := range o.Skipped {
		s.Skipped[k] += v
	}
	s.Chunks += o.Chunks
	s.Embedded += o.Embedded
	s.VectorsReused += o.VectorsReused
	s.SyntaxErrors += o.SyntaxErrors
	s.SevereErrors += o.SevereErrors
	s.Fallback += o.Fallback
	s.Bytes += o.Bytes
	if o.RebuiltFrom != 0 {
		s.RebuiltFrom = o.RebuiltFrom
	}
	s.Resumed += o.Resumed
	if o.Repaired != "" {
		s.Repaired = o.Repaired
	}
}
