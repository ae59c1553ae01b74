package grep

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/go-git/go-git/v5/plumbing"
	"golang.org/x/sync/errgroup"

	"github.com/bcindex/bcindex/exact"
	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/segment"
	"github.com/bcindex/bcindex/store"
)

// grepJob is one distinct blob (or file of the working tree) to verify.
type grepJob struct {
	sha     plumbing.Hash
	at      store.BlobAt // where the snapshot holds it
	disk    string
	attr    int8 // see File.attr
	known   bool // no line matches: nothing to read
	files   []*File
	content []byte
	pieces  []segment.Piece // the pieces of content read (nil: all of it)
	lines   []exact.Line
	binary  bool
	skip    bool // not a file to search (gone, not regular, binary with -I)
	pooled  bool // content is textPool's
	left    int  // files still to emit that hold it
	emitted bool
	done    chan struct{}
}

// textPool recycles the memory of texts read from the segments: a broad
// search reads every file's.
var textPool = sync.Pool{New: func() any { return new([]byte) }}

// inFlight bounds the blobs read but not yet emitted, and so the memory a
// search holds.
const inFlight = 64

// jobKey identifies what a job reads.
type jobKey struct {
	sha  plumbing.Hash
	disk string
	attr int8
}

// verify reads and matches each distinct blob of files once, on every
// core (inflating the blobs is most of the work), and yields the files in
// order.
func verify(ctx context.Context, repo *gitindex.Repo, snap *store.Snapshot, files []*File, opts *Options, st *Stats, yield func(*File) error) error {
	var texts, decoded atomic.Int64
	defer func() { st.FromIndex, st.Decoded = int(texts.Load()), decoded.Load() }()
	pieces := opts.SelectedOnly && opts.Program != nil && opts.Program.LineLocal()
	jobs := make(map[jobKey]*grepJob, len(files))
	byFile := make([]*grepJob, len(files))
	var order []*grepJob
	for i, f := range files {
		k := jobKey{f.Blob, f.Disk, f.attr}
		if f.Disk != "" {
			k.sha = plumbing.ZeroHash
		}
		j := jobs[k]
		if j == nil {
			j = &grepJob{sha: f.Blob, at: f.at, disk: f.Disk, attr: f.attr, known: f.known, done: make(chan struct{})}
			jobs[k] = j
			order = append(order, j)
		}
		j.files = append(j.files, f)
		j.left++
		byFile[i] = j
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
				if err := j.run(repo, snap, opts, pieces); err != nil {
					return err
				}
				if j.pooled {
					texts.Add(1)
					decoded.Add(int64(j.decoded()))
				}
				close(j.done)
			}
			return nil
		})
	}
	g.Go(func() error {
		defer cancel()
		for i, f := range files {
			j := byFile[i]
			select {
			case <-j.done:
			case <-gctx.Done():
				return nil
			}
			if j.selected(opts) {
				out := *f
				out.Content, out.Binary = j.content, j.binary
				if !opts.Invert {
					out.Lines = j.lines
				}
				if opts.Render != nil {
					out.Output = f.Output
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
			if j.left--; j.left == 0 {
				if j.pooled {
					b := j.content
					textPool.Put(&b)
				}
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

// selected reports whether the job's files are yielded.
func (j *grepJob) selected(opts *Options) bool {
	return !j.skip && (len(j.lines) > 0) != opts.Invert
}

// decoded is how many bytes of the job's content were read.
func (j *grepJob) decoded() int {
	if j.pieces == nil {
		return len(j.content)
	}
	n := 0
	for _, p := range j.pieces {
		n += p.End - p.Start
	}
	return n
}

// run reads the job's content, matches it and renders its files; with
// pieces, only the pieces of a large blob that may hold a match are read
// (Options.SelectedOnly).
func (j *grepJob) run(repo *gitindex.Repo, snap *store.Snapshot, opts *Options, pieces bool) error {
	if !j.known {
		if err := j.read(repo, snap, pieces); err != nil {
			return err
		}
		if !j.skip {
			j.match(opts)
		}
	}
	if opts.Render != nil && j.selected(opts) {
		for _, f := range j.files {
			out := *f
			out.Content, out.Binary = j.content, j.binary
			if !opts.Invert {
				out.Lines = j.lines
			}
			f.Output = opts.Render(&out)
		}
	}
	return nil
}

// read reads the blob (from the segments that keep its text, else from
// git), or the working tree's file: one that is gone or not a regular file
// is passed over, as git grep does.
func (j *grepJob) read(repo *gitindex.Repo, snap *store.Snapshot, pieces bool) error {
	if j.disk == "" {
		buf := textPool.Get().(*[]byte)
		var content []byte
		var ok bool
		var err error
		if pieces {
			content, j.pieces, ok, err = snap.TextPiecesAt(j.sha, j.at, (*buf)[:0])
		} else {
			content, ok, err = snap.TextAt(j.sha, j.at, (*buf)[:0])
		}
		if ok && err == nil {
			j.content, j.pooled = content, true
			return nil
		}
		j.pieces = nil
		textPool.Put(buf)
		j.content, err = repo.ReadBlob(j.sha)
		return err
	}
	fi, err := os.Lstat(j.disk)
	if err != nil || !fi.Mode().IsRegular() {
		j.skip = true
		return nil
	}
	content, err := os.ReadFile(j.disk)
	if err != nil {
		if os.IsNotExist(err) {
			j.skip = true
			return nil
		}
		return fmt.Errorf("read %s: %w", j.disk, err)
	}
	j.content = content
	return nil
}

// match finds the job's matching lines, as many as opts allow.
func (j *grepJob) match(opts *Options) {
	// A blob kept in pieces is text (ngram.Bounds cuts no binary blob);
	// the bytes of the pieces not read are not its.
	if j.attr == 2 || j.attr != 1 && j.pieces == nil && isBinary(j.content) {
		switch opts.Binary {
		case BinaryNoMatch:
			j.skip = true
			return
		case BinaryMatch:
			j.binary = true
		}
	}
	limit := opts.MaxCount
	if opts.FirstOnly || opts.Invert {
		limit = 1
	}
	add := func(l exact.Line) bool {
		j.lines = append(j.lines, l)
		return limit <= 0 || len(j.lines) < limit
	}
	if opts.Program == nil {
		opts.Matcher.Lines(j.content, add)
		return
	}
	if j.pieces == nil {
		opts.Program.Lines(j.content, add)
		return
	}
	// Pieces are runs of whole lines, and the program is line-local:
	// each is matched on its own, its lines numbered from its first.
	for _, p := range j.pieces {
		more := true
		opts.Program.Lines(j.content[p.Start:p.End], func(l exact.Line) bool {
			l.Number += p.Line - 1
			l.Start += p.Start
			l.End += p.Start
			more = add(l)
			return more
		})
		if !more {
			return
		}
	}
}
