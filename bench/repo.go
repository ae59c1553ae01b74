package bench

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// repo is the benchmark repository and what the harness did to it.
type repo struct {
	r      *runner
	dir    string
	corpus *corpus
	gofs   []string // editable Go files
	edits  int      // functions appended so far (unique names)
}

// buildRepo commits the corpus already in dir over n commits on main, in
// path order (so the tree grows directory by directory, the way a project
// does), then packs the objects as a clone would have them.
func buildRepo(ctx context.Context, r *runner, dir string, c *corpus, commits int, repack bool) (*repo, error) {
	if _, err := r.git(ctx, dir, "init", "-q", "-b", "main"); err != nil {
		return nil, err
	}
	for i := range commits {
		batch := c.Files[len(c.Files)*i/commits : len(c.Files)*(i+1)/commits]
		if len(batch) == 0 {
			continue
		}
		// -f: the corpus's own .gitignore files would otherwise refuse some of its files.
		in := []byte(strings.Join(batch, "\x00"))
		if err := r.gitIn(ctx, dir, in, "--literal-pathspecs", "add", "-f", "--pathspec-from-file=-", "--pathspec-file-nul"); err != nil {
			return nil, fmt.Errorf("commit corpus: %w", err)
		}
		if _, err := r.git(ctx, dir, "commit", "-q", "--no-verify", "-m", fmt.Sprintf("corpus %d/%d", i+1, commits)); err != nil {
			return nil, fmt.Errorf("commit corpus: %w", err)
		}
	}
	if repack {
		if _, err := r.git(ctx, dir, "repack", "-a", "-d", "-q"); err != nil {
			return nil, fmt.Errorf("pack corpus: %w", err)
		}
	}
	rp := &repo{r: r, dir: dir, corpus: c, gofs: c.goFiles(dir)}
	if len(rp.gofs) == 0 {
		return nil, fmt.Errorf("corpus %s has no editable Go files", c.Name)
	}
	return rp, nil
}

// branch creates a branch off main in which about frac of the Go files,
// spread evenly over the tree, gained a function; it returns how many.
func (rp *repo) branch(ctx context.Context, name string, frac float64) (int, error) {
	n := max(1, int(frac*float64(rp.corpus.IndexFiles)+0.5))
	n = min(n, len(rp.gofs))
	if _, err := rp.r.git(ctx, rp.dir, "switch", "-q", "-c", name); err != nil {
		return 0, err
	}
	for i := range n {
		if err := rp.edit(rp.gofs[i*len(rp.gofs)/n]); err != nil {
			return 0, err
		}
	}
	if _, err := rp.r.git(ctx, rp.dir, "commit", "-q", "--no-verify", "-am", "branch "+name); err != nil {
		return 0, err
	}
	if _, err := rp.r.git(ctx, rp.dir, "switch", "-q", "main"); err != nil {
		return 0, err
	}
	return n, nil
}

// oneFileCommit commits a change to one Go file on the current branch.
func (rp *repo) oneFileCommit(ctx context.Context) error {
	if err := rp.edit(rp.gofs[len(rp.gofs)/2+1]); err != nil {
		return err
	}
	_, err := rp.r.git(ctx, rp.dir, "commit", "-q", "--no-verify", "-am", "one file")
	return err
}

func (rp *repo) edit(f string) error {
	rp.edits++
	if err := appendFunc(rp.dir, f, rp.edits); err != nil {
		return fmt.Errorf("edit %s: %w", f, err)
	}
	return nil
}

// addCopy commits copy k of the corpus under bench-copies/ck/ on the current
// branch. Each file gains k trailing newlines, so every blob is new (the
// indexer chunks it again) while its code, and so its chunks, stay valid.
func (rp *repo) addCopy(ctx context.Context, k int) error {
	prefix := fmt.Sprintf("bench-copies/c%d", k)
	pad := bytes.Repeat([]byte{'\n'}, k)
	for _, f := range rp.corpus.Files {
		if err := ctx.Err(); err != nil {
			return err
		}
		data, err := os.ReadFile(filepath.Join(rp.dir, filepath.FromSlash(f)))
		if err != nil {
			return fmt.Errorf("copy corpus: %w", err)
		}
		if err := writeFile(filepath.Join(rp.dir, filepath.FromSlash(path.Join(prefix, f))), append(data, pad...)); err != nil {
			return fmt.Errorf("copy corpus: %w", err)
		}
	}
	if _, err := rp.r.git(ctx, rp.dir, "add", "-f", "-A", "--", prefix); err != nil {
		return err
	}
	_, err := rp.r.git(ctx, rp.dir, "commit", "-q", "--no-verify", "-m", "scale copy "+fmt.Sprint(k))
	return err
}
