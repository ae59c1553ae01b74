package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/bcindex/bcindex/store"
)

// History defaults: every first-parent commit of the history repository up
// to DefaultHistoryCap, or QuickHistory commits in the quick mode.
const (
	DefaultHistoryCap = 2000
	QuickHistory      = 10
)

// historySummary is the part of `git-bcindex index --history N --json` the
// harness reads besides indexSummary: one revision per commit indexed.
type historySummary struct {
	indexSummary
	BlobsReused int            `json:"blobs_reused"`
	Skipped     map[string]int `json:"skipped"`
	Revisions   []struct {
		Commit string `json:"commit"`
	} `json:"revisions"`
}

// HistoryStats is the cost of indexing a real first-parent history, against
// a single-revision index of its HEAD in the same clone.
type HistoryStats struct {
	Repo      string `json:"repo"`      // the repository cloned
	Head      string `json:"head"`      // its HEAD commit
	Available int    `json:"available"` // first-parent commits of HEAD
	Requested int    `json:"requested"` // the N passed to --history

	// Single revision: `git-bcindex index HEAD` in a fresh clone.
	SingleFiles      int     `json:"single_files"`
	SingleBlobs      int     `json:"single_blobs"`
	SingleChunks     int     `json:"single_chunks"`
	SingleSec        float64 `json:"single_s"`
	SingleStoreBytes int64   `json:"single_store_bytes"`

	// History: `git-bcindex index --history N HEAD` right after, so HEAD's
	// blobs are already indexed and reused.
	Commits       int     `json:"commits"` // commits indexed
	Seconds       float64 `json:"seconds"` // the history run
	PerKCommitSec float64 `json:"per_1k_commits_s"`
	Extrapolated  bool    `json:"per_1k_extrapolated"` // fewer than 1,000 commits: scaled linearly
	// TotalSec is HEAD's index and the history run: the history from scratch.
	TotalSec           float64 `json:"single_plus_history_s"`
	PerKCommitTotalSec float64 `json:"per_1k_commits_from_scratch_s"`
	PeakRSS            int64   `json:"peak_rss_bytes"`
	// FileEntries is the file entries summed over the commits' trees
	// (commits × files); Blobs the distinct blobs among them that are
	// searchable, BlobsNew those the history run processed, BlobsReused
	// those already indexed (HEAD's).
	FileEntries int     `json:"file_entries"`
	Skipped     int     `json:"file_entries_skipped"`
	Blobs       int     `json:"blobs"`
	BlobsNew    int     `json:"blobs_new"`
	BlobsReused int     `json:"blobs_reused"`
	Chunks      int     `json:"chunks"` // written by the history run
	BlobShare   float64 `json:"blobs_over_file_entries"`
	StoreBytes  int64   `json:"store_bytes"`
	StoreRatio  float64 `json:"store_over_single"`
	// StoreParts is where StoreBytes go, by component.
	StoreParts *store.Parts `json:"store_parts"`
}

// historyRepo returns the top level of the repository whose history is
// measured: cfg.HistoryRepo, or the one the harness runs in.
func historyRepo(ctx context.Context, cfg Config) (string, error) {
	dir := cfg.HistoryRepo
	if dir == "" {
		dir = "."
	}
	plain := &runner{env: os.Environ()}
	p, err := plain.run(ctx, dir, nil, nil, "git", "rev-parse", "--show-toplevel")
	if err != nil {
		if cfg.HistoryRepo == "" {
			return "", fmt.Errorf("%w: history: not run inside a git repository; pass -history-repo PATH or -history -1: %v", ErrConfig, err)
		}
		return "", fmt.Errorf("%w: history repository %s: %v", ErrConfig, cfg.HistoryRepo, err)
	}
	return strings.TrimSpace(string(p.Stdout)), nil
}

// history clones src into dir, indexes its HEAD, then its first-parent
// history, each as a new git-bcindex process, and compares the two.
func (b *bench) history(ctx context.Context, src, dir string) (*HistoryStats, error) {
	b.logf("history: cloning %s", src)
	if _, err := b.r.git(ctx, filepath.Dir(dir), "clone", "--no-hardlinks", "-q", src, dir); err != nil {
		return nil, fmt.Errorf("history: clone: %w", err)
	}
	h := &HistoryStats{Repo: src}
	out, err := b.r.git(ctx, dir, "rev-parse", "HEAD")
	if err != nil {
		return nil, fmt.Errorf("history: %w", err)
	}
	h.Head = strings.TrimSpace(string(out))
	if out, err = b.r.git(ctx, dir, "rev-list", "--first-parent", "--count", "HEAD"); err != nil {
		return nil, fmt.Errorf("history: %w", err)
	}
	if h.Available, err = strconv.Atoi(strings.TrimSpace(string(out))); err != nil {
		return nil, fmt.Errorf("history: count commits: %w", err)
	}
	h.Requested = b.cfg.HistoryCommits
	if h.Requested == 0 {
		h.Requested = min(h.Available, DefaultHistoryCap)
	}

	b.logf("history: single-revision index of HEAD (%.12s)", h.Head)
	var one indexSummary
	p, err := b.indexJSON(ctx, dir, &one, "HEAD")
	if err != nil {
		return nil, fmt.Errorf("history: %w", err)
	}
	h.SingleFiles, h.SingleBlobs, h.SingleChunks = one.Files, one.Blobs, one.Chunks
	h.SingleSec = p.Elapsed.Seconds()
	h.SingleStoreBytes = dirSize(filepath.Join(dir, ".git", "bcindex"))

	b.logf("history: index --history %d", h.Requested)
	var hs historySummary
	if p, err = b.indexJSON(ctx, dir, &hs, "--history", strconv.Itoa(h.Requested), "HEAD"); err != nil {
		if shallow(ctx, b.r, dir) {
			return nil, fmt.Errorf("history: %w (%s is a shallow clone with %d first-parent commits: deepen it with `git fetch --unshallow`, or use -history-repo with a full clone)", err, src, h.Available)
		}
		return nil, fmt.Errorf("history: %w", err)
	}
	h.Commits = len(hs.Revisions)
	h.Seconds = p.Elapsed.Seconds()
	h.TotalSec = h.SingleSec + h.Seconds
	h.PeakRSS = p.MaxRSS
	if h.Commits > 0 {
		h.PerKCommitSec = h.Seconds * 1000 / float64(h.Commits)
		h.PerKCommitTotalSec = h.TotalSec * 1000 / float64(h.Commits)
	}
	h.Extrapolated = h.Commits < 1000
	h.FileEntries, h.Blobs, h.BlobsNew, h.BlobsReused, h.Chunks = hs.Files, hs.Blobs, hs.BlobsNew, hs.BlobsReused, hs.Chunks
	for _, n := range hs.Skipped {
		h.Skipped += n
	}
	if h.FileEntries > 0 {
		h.BlobShare = float64(h.Blobs) / float64(h.FileEntries)
	}
	h.StoreBytes = dirSize(filepath.Join(dir, ".git", "bcindex"))
	h.StoreParts = store.StoreParts(filepath.Join(dir, ".git", "bcindex"))
	if h.SingleStoreBytes > 0 {
		h.StoreRatio = float64(h.StoreBytes) / float64(h.SingleStoreBytes)
	}
	b.logf("history: %d commits in %.1f s, %d distinct blobs (%d new), store %.2f× single", h.Commits, h.Seconds, h.Blobs, h.BlobsNew, h.StoreRatio)
	return h, nil
}

// shallow reports whether the repository in dir is a shallow clone.
func shallow(ctx context.Context, r *runner, dir string) bool {
	out, err := r.git(ctx, dir, "rev-parse", "--is-shallow-repository")
	return err == nil && strings.TrimSpace(string(out)) == "true"
}

// indexJSON runs `git-bcindex index --json args...` in dir and decodes its
// summary into v.
func (b *bench) indexJSON(ctx context.Context, dir string, v any, args ...string) (*proc, error) {
	p, err := b.r.run(ctx, dir, nil, nil, b.bin, append([]string{"index", "--json"}, args...)...)
	if err != nil {
		return nil, fmt.Errorf("index %s: %w", strings.Join(args, " "), err)
	}
	if err := json.Unmarshal(p.Stdout, v); err != nil {
		return nil, fmt.Errorf("index %s: read summary %q: %w", strings.Join(args, " "), clip(p.Stdout), err)
	}
	return p, nil
}
