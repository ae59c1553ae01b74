package grep

import (
	"bytes"
	"context"
	"errors"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/bcindex/bcindex/exact"
	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/pathspec"
	"github.com/bcindex/bcindex/query"
	"github.com/bcindex/bcindex/store"
)

// Options are the options of an exact search.
type Options struct {
	Matcher *exact.Matcher
	Rev     string                // default HEAD
	Refs    gitindex.RefSelection // several revisions; replaces Rev
	Paths   query.PathFilter
	// MaxCount stops reading a file after that many matching lines (git
	// grep -m); 0: no limit.
	MaxCount int
	// FirstOnly stops at a file's first matching line (-l, -L).
	FirstOnly bool
	// Invert selects the files without a match (-L): they are yielded
	// with no lines.
	Invert bool

	// Sources, when set, are what git grep searches, in order: revisions'
	// trees, blobs, files of the working tree or the index. Each file is
	// yielded for each source holding it, selected lines by Program, and
	// Pathspec filters the paths of trees and files (not blobs). The
	// view's commits are the sources' commits, in order (PlanSources).
	Sources  []Source
	Program  *exact.Program
	Pathspec *pathspec.Set
	// Binary is how a binary file (a NUL in its first 8000 bytes) is
	// read: BinaryNoMatch passes over it (git grep -I, and what a search
	// over Rev or Refs does), BinaryMatch matches it and yields it with
	// Binary set, BinaryText reads it as text (-a).
	Binary int
	// BinaryAttr, when set, says what git attributes make of a file of a
	// source with Attributes: 1 binary whatever it holds, 0 text, -1
	// decided by its content.
	BinaryAttr func(path string) int
	// SelectedOnly says that the caller reads only the selected lines of
	// a File's Content (no context or function lines): of a large blob
	// kept in pieces, a search with a line-local Program
	// (exact.Program.LineLocal) then decodes only the pieces that may
	// hold a match, and Content's other bytes are unspecified.
	SelectedOnly bool
	// Render, when set, is called for each file with a selected line (or
	// without one, with Invert), on the goroutine that matched it: its
	// result is the file's Output, which yield then writes in order.
	Render func(*File) []byte
}

// How binary files are read; see Options.Binary.
const (
	BinaryNoMatch = iota
	BinaryMatch
	BinaryText
)

// Source is one thing a search over Sources reads.
type Source struct {
	// Name is printed before each path ("HEAD:" for a revision), or is
	// a blob's whole name.
	Name string
	// Commit, when set, is a revision whose tree is Tree (indexed first
	// by the front end), or HEAD for the working tree, whose blobs are
	// indexed first.
	Commit *gitindex.Commit
	Tree   plumbing.Hash // a tree whose files are searched
	Blob   plumbing.Hash // a blob: the source is that one file, Name
	// Files are files of the working tree or the index; those without a
	// blob are read from Dir.
	Files []gitindex.WorkFile
	Dir   string
	// Attributes applies BinaryAttr to the source's paths (git does for
	// the working tree, the index and commits, not for trees or blobs).
	Attributes bool
}

// File is one file's matches: a blob at a path, in every searched
// revision that holds that blob at that path.
type File struct {
	Path    string
	Blob    plumbing.Hash
	Refs    []Ref
	Content []byte // valid until yield returns: its memory is reused
	Lines   []exact.Line
	// Source is the file's source (an index of Options.Sources); Disk
	// the file it was read from, when it was not a blob.
	Source int
	Disk   string
	// Binary is set for a binary file read with BinaryMatch.
	Binary bool
	Output []byte // see Options.Render
	known  bool   // the index proves no line matches
	attr   int8   // BinaryAttr's verdict, plus one; 0 when it has none
	at     store.BlobAt
}

// Ref is a searched revision holding a file.
type Ref struct {
	Name   string // as asked (main, v1.2, HEAD)
	Commit plumbing.Hash
}

// Stats says how a search was answered.
type Stats struct {
	Revisions  []gitindex.Commit
	Files      int   // files (blob at a path) in the searched revisions after path filters
	Blobs      int   // distinct blobs among them
	Candidates int   // blobs the trigram index could not rule out, read and verified
	Unindexed  int   // blobs the index does not cover (vendored, too large, pending), read and verified
	FromIndex  int   // blobs read from the segments' texts, not from git
	Decoded    int64 // bytes decoded from the segments' texts
	Matched    int   // files yielded
	Damaged    []string
}

// ErrStop, returned by a yield function, ends a search without an error.
var ErrStop = errors.New("stop")

// Grep finds every line matching opts.Matcher in the revisions asked,
// calling yield per file with a match, in path order (for several
// revisions: the first revision's files, then those only later ones
// hold). Candidates come from the segments' trigram postings and are
// verified against the blob's bytes; blobs the index does not cover are
// read and verified too, so the answer is complete: the same lines as git
// grep -I at those revisions. A yield error stops the search and is
// returned, except ErrStop, which stops it quietly.
//
// rd is the view of the revisions Plan named, opened by the front end
// (indexer.Ensure with indexer.Exact indexes what is missing, without
// vectors).
func Grep(ctx context.Context, rd *store.View, opts Options, yield func(*File) error) (*Stats, error) {
	if len(opts.Sources) > 0 {
		return grepSources(ctx, rd, &opts, yield)
	}
	if opts.Matcher == nil {
		return nil, query.ErrEmpty
	}
	repo := rd.Repo
	commits := rd.Want.Commits
	st := &Stats{Revisions: commits, Damaged: rd.Damaged}
	files := grepFiles(rd.Listings, commits, &opts.Paths)
	st.Files = len(files)
	filter := rd.Snap.ExactFilterAt(opts.Matcher.Query())
	var todo []*File
	seen := make(map[plumbing.Hash]bool, len(files))
	for _, f := range files {
		first := !seen[f.Blob]
		seen[f.Blob] = true
		cov, at, err := filter(f.Blob)
		if err != nil {
			return nil, err
		}
		f.at = at
		if first {
			st.Blobs++
			switch cov {
			case store.Uncovered:
				st.Unindexed++
			case store.Candidate:
				st.Candidates++
			}
		}
		// -L lists the files without a match, a binary one never (-I).
		if cov == store.Candidate || cov == store.Uncovered || cov == store.RuledOut && opts.Invert {
			todo = append(todo, f)
		}
	}
	err := verify(ctx, repo, rd.Snap, todo, &opts, st, func(f *File) error {
		st.Matched++
		return yield(f)
	})
	if errors.Is(err, ErrStop) {
		err = nil
	}
	return st, err
}

// Plan resolves the revisions a grep of opts reads, for the front end to
// open and pass to Grep.
func Plan(repo *gitindex.Repo, opts Options) (store.Want, error) {
	commits, err := grepRevisions(repo, &opts)
	return store.Want{Commits: commits}, err
}

func grepRevisions(repo *gitindex.Repo, opts *Options) ([]gitindex.Commit, error) {
	if opts.Refs.Empty() {
		rev := opts.Rev
		if rev == "" {
			rev = "HEAD"
		}
		c, err := repo.Resolve(rev)
		if err != nil {
			return nil, err
		}
		return []gitindex.Commit{c}, nil
	}
	revs, err := repo.ExpandRefs(opts.Refs)
	if err != nil {
		return nil, err
	}
	var out []gitindex.Commit
	for _, r := range revs {
		c, err := repo.Resolve(r.Rev)
		if err != nil {
			return nil, err
		}
		c.Rev = r.Name
		out = append(out, c)
	}
	return out, nil
}

// grepFiles lists the files (blob at a path) of the listings that git grep
// searches and the filter accepts: every file but symlinks, submodules and
// paths no file system holds. A file held by several revisions is listed
// once, naming each of them.
func grepFiles(ls []*gitindex.Listing, commits []gitindex.Commit, pf *query.PathFilter) []*File {
	type key struct {
		path string
		blob plumbing.Hash
	}
	at := map[key]*File{}
	var out []*File
	for i, l := range ls {
		ref := Ref{Name: commits[i].Rev, Commit: commits[i].Hash}
		for _, e := range l.Entries {
			switch e.Skip {
			case gitindex.SkipSymlink, gitindex.SkipSubmodule, gitindex.SkipBadPath:
				continue
			}
			if !pf.Match(e.Path) {
				continue
			}
			k := key{e.Path, e.Blob}
			if f := at[k]; f != nil {
				f.Refs = append(f.Refs, ref)
				continue
			}
			f := &File{Path: e.Path, Blob: e.Blob, Refs: []Ref{ref}}
			if len(ls) > 1 {
				at[k] = f
			}
			out = append(out, f)
		}
	}
	return out
}

// isBinary is git's rule: a NUL byte in the first 8000 bytes.
func isBinary(content []byte) bool {
	return bytes.IndexByte(content[:min(len(content), 8000)], 0) >= 0
}
