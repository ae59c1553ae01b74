package grep

import (
	"context"
	"runtime"

	"github.com/go-git/go-git/v5/plumbing"
	"golang.org/x/sync/errgroup"

	"github.com/bcindex/bcindex/exact"
	"github.com/bcindex/bcindex/gitindex"
)

// grepJob is one distinct blob to verify.
type grepJob struct {
	sha     plumbing.Hash
	content []byte
	lines   []exact.Line
	binary  bool
	files   int // files still to emit that hold it
	emitted bool
	done    chan struct{}
}

// inFlight bounds the blobs read but not yet emitted, and so the memory a
// search holds.
const inFlight = 64

// verify reads and matches each distinct blob of files once, on every
// core (inflating the blobs is most of the work), and yields the files in
// order.
func verify(ctx context.Context, repo *gitindex.Repo, files []*GrepFile, opts *GrepOptions, yield func(*GrepFile) error) error {
	jobs := map[plumbing.Hash]*grepJob{}
	var order []*grepJob
	for _, f := range files {
		j := jobs[f.Blob]
		if j == nil {
			j = &grepJob{sha: f.Blob, done: make(chan struct{})}
			jobs[f.Blob] = j
			order = append(order, j)
		}
		j.files++
	}
	parent := ctx
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	g, gctx := errgroup.WithContext(ctx)
	slots := make(chan struct{}, inFlight)
	work := make(chan *grepJob, inFlight)
	g.Go(func() error {
		defer close(work)
		for _, j := range order {
			select {
			case slots <- struct{}{}:
			case <-gctx.Done():
				return nil
			}
			select {
			case work <- j:
			case <-gctx.Done():
				return nil
			}
		}
		return nil
	})
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		g.Go(func() error {
			for j := range work {
				content, err := repo.ReadBlob(j.sha)
				if err != nil {
					return err
				}
				j.content = content
				j.match(opts)
				close(j.done)
			}
			return nil
		})
	}
	g.Go(func() error {
		defer cancel()
		for _, f := range files {
			j := jobs[f.Blob]
			select {
			case <-j.done:
			case <-gctx.Done():
				return nil
			}
			if !j.binary && (len(j.lines) > 0) != opts.Invert {
				out := *f
				out.Content = j.content
				if !opts.Invert {
					out.Lines = j.lines
				}
				if err := yield(&out); err != nil {
					return err
				}
			}
			// The slot goes at the blob's first file, so that a blob held
			// at a later path as well never holds the reader back; its
			// bytes go at its last.
			if !j.emitted {
				j.emitted = true
				<-slots
			}
			if j.files--; j.files == 0 {
				j.content, j.lines = nil, nil
			}
		}
		return nil
	})
	if err := g.Wait(); err != nil {
		return err
	}
	return parent.Err()
}

// match finds the job's matching lines, as many as opts allow.
func (j *grepJob) match(opts *GrepOptions) {
	if isBinary(j.content) {
		j.binary = true
		return
	}
	limit := opts.MaxCount
	if opts.FirstOnly || opts.Invert {
		limit = 1
	}
	opts.Matcher.Lines(j.content, func(l exact.Line) bool {
		j.lines = append(j.lines, l)
		return limit <= 0 || len(j.lines) < limit
	})
}
