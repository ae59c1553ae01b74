package grep

import (
	"context"
	"errors"
	"path/filepath"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/query"
	"github.com/bcindex/bcindex/store"
)

// PlanSources is the view a search over sources reads: their commits, in
// order, for the front end to index and open (HEAD for the working tree,
// so that the files still holding its blobs are answered from the
// index).
func PlanSources(sources []Source) store.Want {
	var want store.Want
	for _, s := range sources {
		if s.Commit != nil {
			want.Commits = append(want.Commits, *s.Commit)
		}
	}
	return want
}

// grepSources is Grep over opts.Sources, as git grep reads them: each
// source's files in order, each file yielded once per source holding it.
// Blobs are read once however many files hold them; blobs the index
// covers are read only if their trigrams do not rule them out. rd is the
// view of PlanSources (its Snap nil when there is no index yet, its Repo
// nil outside a repository).
func grepSources(ctx context.Context, rd *store.View, opts *Options, yield func(*File) error) (*Stats, error) {
	if opts.Program == nil {
		return nil, query.ErrEmpty
	}
	repo, snap := rd.Repo, rd.Snap
	st := &Stats{Revisions: rd.Want.Commits, Damaged: rd.Damaged}
	listings := rd.Listings
	filter := func(plumbing.Hash) (store.Coverage, store.BlobAt, error) {
		return store.Uncovered, store.BlobAt{}, nil
	}
	if snap != nil {
		filter = snap.ExactFilterAt(opts.Program.Query())
	}
	var todo []*File
	type known struct {
		cov store.Coverage
		at  store.BlobAt
	}
	n := 0 // the files listed, to size the map once
	for _, s := range opts.Sources {
		n += len(s.Files)
	}
	for _, l := range listings {
		if l != nil {
			n += len(l.Entries)
		}
	}
	seen := make(map[plumbing.Hash]known, n)
	add := func(f *File) error {
		st.Files++
		if opts.BinaryAttr != nil && opts.Sources[f.Source].Attributes {
			f.attr = int8(opts.BinaryAttr(f.Path) + 1) // 0 none, 1 text, 2 binary
		}
		if f.attr == 2 && opts.Binary == BinaryNoMatch {
			return nil
		}
		if f.Disk != "" {
			st.Unindexed++
			todo = append(todo, f)
			return nil
		}
		k, ok := seen[f.Blob]
		cov := k.cov
		if !ok {
			var err error
			if cov, k.at, err = filter(f.Blob); err != nil {
				return err
			}
			k.cov = cov
			seen[f.Blob] = k
			st.Blobs++
			switch cov {
			case store.Uncovered, store.Binary:
				st.Unindexed++
			case store.Candidate:
				st.Candidates++
			}
		}
		f.at = k.at
		switch {
		case cov == store.RuledOut && !opts.Invert:
		case cov == store.Binary && opts.Binary == BinaryNoMatch && f.attr != 1:
		default:
			if cov == store.RuledOut {
				f.known = true // no line matches: listed by -L unread
			}
			todo = append(todo, f)
		}
		return nil
	}
	next := 0 // the next commit's listing
	for i, s := range opts.Sources {
		var err error
		switch {
		case !s.Blob.IsZero():
			err = add(&File{Source: i, Blob: s.Blob})
		case !s.Tree.IsZero():
			var l *gitindex.Listing
			if s.Commit != nil && next < len(listings) && listings[next] != nil {
				l = listings[next]
				next++
			} else if l, err = repo.Listing(s.Tree); err != nil {
				return nil, err
			}
			for _, e := range l.Entries {
				switch e.Skip {
				case gitindex.SkipSymlink, gitindex.SkipSubmodule:
					continue
				}
				if !opts.Pathspec.Match(e.Path) || !opts.Paths.Match(e.Path) {
					continue
				}
				if err = add(&File{Source: i, Path: e.Path, Blob: e.Blob}); err != nil {
					break
				}
			}
		default:
			for _, w := range s.Files {
				if !opts.Pathspec.Match(w.Path) || !opts.Paths.Match(w.Path) {
					continue
				}
				f := &File{Source: i, Path: w.Path, Blob: w.Blob}
				if w.Blob.IsZero() {
					f.Disk = filepath.Join(s.Dir, filepath.FromSlash(w.Path))
				}
				if err = add(f); err != nil {
					break
				}
			}
		}
		if err != nil {
			return nil, err
		}
	}
	err := verify(ctx, repo, snap, todo, opts, st, func(f *File) error {
		st.Matched++
		return yield(f)
	})
	if errors.Is(err, ErrStop) {
		err = nil
	}
	return st, err
}
