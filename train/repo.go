package train

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/gitindex"
)

// MinAdaptPairs is the fewest documented functions adaptation runs on:
// below it, a batch of in-batch negatives is too small to teach anything.
const MinAdaptPairs = 16

// ErrFewPairs reports a repository with too few documented functions.
var ErrFewPairs = errors.New("too few documented functions to adapt to")

// An Adaptation is the result of adapting the built-in model to one
// revision of a repository.
type Adaptation struct {
	ID    string // the adapted model's ID: base ID + "+adapt-" + tree
	Pairs int    // (doc, code) pairs adapted on
	Data  []byte // the encoded model
	// With measuring: base and adapted model on the held-out half.
	Base, Adapted []Result
}

// RepoUnits mines every file of rev's tree, read from git objects (never
// from a checkout), skipping what the index skips (vendored, generated,
// binary, too large).
func RepoUnits(ctx context.Context, repo *gitindex.Repo, rev string) ([]Unit, gitindex.Commit, error) {
	c, err := repo.Resolve(rev)
	if err != nil {
		return nil, c, err
	}
	l, err := repo.Listing(c.Tree)
	if err != nil {
		return nil, c, fmt.Errorf("adapt: list %s: %w", rev, err)
	}
	var units []Unit
	for _, e := range l.Entries {
		if err := ctx.Err(); err != nil {
			return nil, c, fmt.Errorf("adapt: %w", err)
		}
		if e.Skip != gitindex.SkipNone || !IsSourceFile(path.Base(e.Path)) {
			continue
		}
		data, size, err := repo.ReadBlobUpTo(e.Blob, MaxFileBytes)
		if err != nil {
			return nil, c, fmt.Errorf("adapt: read %s: %w", e.Path, err)
		}
		if size > MaxFileBytes {
			continue
		}
		u := MineFile(e.Path, data)
		u.Dir = path.Dir(e.Path)
		units = append(units, u)
	}
	return units, c, nil
}

// AdaptRepo adapts base to rev of repo. With measure, it adapts on half of
// the documented functions and compares base and adapted model on the
// other half; the returned model is then the half-trained one, for the
// report only.
func AdaptRepo(ctx context.Context, repo *gitindex.Repo, rev string, base *embed.Static, cfg Config, measure bool) (*Adaptation, error) {
	units, c, err := RepoUnits(ctx, repo, rev)
	if err != nil {
		return nil, err
	}
	name := filepath.Base(repo.WorkTree)
	if name == "." || name == "" || name == string(filepath.Separator) {
		name = "repository"
	}
	pairs, held := AdaptPairs(BuildEvalSets(name, units), measure)
	if len(pairs) < MinAdaptPairs {
		return nil, fmt.Errorf("adapt: %d documented functions at %s, want at least %d: %w", len(pairs), rev, MinAdaptPairs, ErrFewPairs)
	}
	// The ID names the base model and the tree adapted to: vectors of an
	// adapted model are never mixed with the base model's or with those of
	// an adaptation to another tree.
	a := &Adaptation{ID: AdaptedID(base.ID(), c.Tree.String()), Pairs: len(pairs)}
	if a.Data, err = Adapt(ctx, cfg, base, pairs, a.ID); err != nil {
		return nil, err
	}
	if measure {
		adapted, err := embed.LoadStatic(a.Data)
		if err != nil {
			return nil, fmt.Errorf("adapt: %w", err)
		}
		if a.Base, err = Evaluate(ctx, held, base, 0); err != nil {
			return nil, err
		}
		if a.Adapted, err = Evaluate(ctx, held, adapted, 0); err != nil {
			return nil, err
		}
	}
	return a, nil
}

// AdaptedID is the ID of base adapted to a tree.
func AdaptedID(base, tree string) string {
	return base + "+adapt-" + tree[:min(12, len(tree))]
}

// AdaptedPath is where a repository keeps its adapted model.
func AdaptedPath(indexDir string) string {
	return filepath.Join(indexDir, "adapt", "model.bin")
}

// SaveAdapted writes an adapted model for the repository whose index
// directory is indexDir, replacing the previous one atomically.
func SaveAdapted(indexDir string, data []byte) error {
	p := AdaptedPath(indexDir)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return fmt.Errorf("save adapted model: %w", err)
	}
	tmp := p + ".tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return fmt.Errorf("save adapted model: %w", err)
	}
	if err := os.Rename(tmp, p); err != nil {
		return fmt.Errorf("save adapted model: %w", err)
	}
	return nil
}

// LoadAdapted returns the repository's adapted model when there is one
// adapted from base; nil without error when there is none, or when it was
// adapted from another base model (the built-in model changed since).
func LoadAdapted(indexDir, base string) (*embed.Static, error) {
	data, err := os.ReadFile(AdaptedPath(indexDir))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("load adapted model: %w", err)
	}
	m, err := embed.LoadStatic(data)
	if err != nil {
		return nil, fmt.Errorf("load adapted model %s: %w", AdaptedPath(indexDir), err)
	}
	if !strings.HasPrefix(m.ID(), base+"+adapt-") {
		return nil, nil
	}
	return m, nil
}
