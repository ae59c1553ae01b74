package bench

import (
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/bcindex/bcindex/internal/reserved"
)

// Default corpus: a large Go module nobody here wrote, pinned so that runs
// compare. Kubernetes' module zip holds the main repository without its
// staging modules and vendor tree: about 8k files, 80 MB; with GOROOT/src
// (11k files) the repository passes the 10k files the targets ask for.
const (
	DefaultModule  = "k8s.io/kubernetes"
	DefaultVersion = "v1.31.0"
)

// Config selects the corpus and how much to measure.
type Config struct {
	// Module and Version name the corpus module fetched with `go mod
	// download`; an empty Module uses no module.
	Module, Version string
	// GOROOTSrc adds $GOROOT/src to the corpus.
	GOROOTSrc bool
	// Quick is the smoke mode: GOROOT/src/net only, few repetitions. It
	// overrides Module and GOROOTSrc.
	Quick bool

	// Source is the bcindex module root whose cmd/git-bcindex is built
	// (default: the enclosing module of the current directory).
	Source string
	// Binary is a prebuilt git-bcindex to use instead of building one.
	Binary string
	// WorkDir holds the repository and binary; it is never removed. By
	// default a new directory under os.TempDir is used and removed at the
	// end unless Keep.
	WorkDir string
	Keep    bool

	// Commits is the number of commits the corpus arrives in (default 5).
	Commits int
	// BranchFraction of the files differs on the second branch (default 0.01).
	BranchFraction float64
	// Reps is how many times each query runs in a warm process; cold
	// processes run each query ColdReps times (defaults 20 and 3).
	Reps, ColdReps int
	// BranchReps is how many times the second branch is indexed, each time
	// from the index the full index left (default 3); the median counts.
	BranchReps int
	// ScaleChunks is the chunk count the scale-up phase aims for (0: skip);
	// ScaleBudget bounds the time it may spend indexing (default 15 min).
	ScaleChunks int
	ScaleBudget time.Duration
	// Repack packs the repository's objects as a clone would have them.
	Repack bool

	// HistoryRepo is the repository whose first-parent history is indexed
	// (in a clone of it; default: the repository the harness runs in).
	HistoryRepo string
	// HistoryCommits is how many of its commits to index: 0 means all, up
	// to DefaultHistoryCap (QuickHistory in the quick mode); negative skips
	// the history measurement.
	HistoryCommits int

	// Log receives progress lines (nil: silent).
	Log io.Writer
}

// ErrConfig is wrapped by configuration errors.
var ErrConfig = errors.New("invalid benchmark configuration")

// withDefaults fills the zero fields and checks the rest.
func (c Config) withDefaults() (Config, error) {
	if c.Quick {
		c.Module, c.Version, c.GOROOTSrc = "", "", false
		if c.Reps == 0 {
			c.Reps = 5
		}
		if c.ColdReps == 0 {
			c.ColdReps = 1
		}
		if c.HistoryCommits == 0 {
			c.HistoryCommits = QuickHistory
		}
	}
	if c.Commits == 0 {
		c.Commits = 5
	}
	if c.BranchFraction == 0 {
		c.BranchFraction = 0.01
	}
	if c.Reps == 0 {
		c.Reps = 20
	}
	if c.ColdReps == 0 {
		c.ColdReps = 3
	}
	if c.BranchReps == 0 {
		c.BranchReps = 3
	}
	if c.ScaleBudget == 0 {
		c.ScaleBudget = 15 * time.Minute
	}
	if c.Log == nil {
		c.Log = io.Discard
	}
	switch {
	case c.Commits < 1:
		return c, fmt.Errorf("%w: commits %d < 1", ErrConfig, c.Commits)
	case c.BranchFraction <= 0 || c.BranchFraction >= 1:
		return c, fmt.Errorf("%w: branch fraction %g not in (0, 1)", ErrConfig, c.BranchFraction)
	case c.Reps < 1 || c.ColdReps < 1 || c.BranchReps < 1:
		return c, fmt.Errorf("%w: repetitions must be at least 1", ErrConfig)
	case c.ScaleChunks < 0:
		return c, fmt.Errorf("%w: negative scale chunks", ErrConfig)
	case !c.Quick && c.Module == "" && !c.GOROOTSrc:
		return c, fmt.Errorf("%w: no corpus: give a module or GOROOT/src", ErrConfig)
	case c.Module != "" && c.Version == "":
		return c, fmt.Errorf("%w: module %s needs a version", ErrConfig, c.Module)
	}
	if c.Module != "" && reserved.Is(c.Module) {
		return c, fmt.Errorf("%w: %s is reserved for an independent evaluation", ErrConfig, c.Module)
	}
	return c, nil
}
