package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/bcindex/bcindex/exact"
	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/grep"
	"github.com/bcindex/bcindex/indexer"
	"github.com/bcindex/bcindex/pathspec"
	"github.com/bcindex/bcindex/store"
)

// search runs the search and prints what it finds.
func (g *grepRun) search(sources []grep.GrepSource, ps *pathspec.Set, prog *exact.Program) error {
	o := g.o
	if o.pager != nil {
		return g.openInPager(sources, ps, prog)
	}
	r, err := g.renderer(prog, sources)
	if err != nil {
		return err
	}
	opts := grep.GrepOptions{
		Sources: sources, Program: prog, Pathspec: ps, Render: r.render,
		MaxCount: max(o.maxCount, 0), Invert: o.unmatchName,
		FirstOnly: o.nameOnly || o.unmatchName || o.quiet,
	}
	switch o.binary {
	case binaryText:
		opts.Binary = grep.BinaryText
	case binaryDefault:
		opts.Binary = grep.BinaryMatch
	}
	for _, p := range o.paths {
		if err := opts.Paths.AddGlob(p); err != nil {
			return usageError{err.Error()}
		}
	}
	for _, p := range o.excludes {
		if err := opts.Paths.AddExclude(p); err != nil {
			return usageError{err.Error()}
		}
	}
	v, err := g.view(sources, !o.json)
	if err != nil {
		return err
	}
	defer v.Close()
	if err := g.attributes(&opts, r); err != nil {
		return err
	}
	var w io.Writer = g.c.App.Writer
	closeOut := func() error { return nil }
	if !o.quiet {
		out, err := g.output(r)
		if err != nil {
			return err
		}
		w, closeOut = out.w, out.close
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	skip := r.skipFirstLine()
	st, err := grep.Grep(g.c.Context, v, opts, func(f *grep.GrepFile) error {
		if o.quiet {
			return grep.ErrStop
		}
		out := f.Output
		if skip && len(out) > 0 {
			skip = false
			if i := strings.IndexByte(string(out), '\n'); i >= 0 {
				out = out[i+1:]
			}
		}
		if _, err := bw.Write(out); err != nil {
			return pipeErr(err)
		}
		return pipeErr(bw.Flush())
	})
	ferr := bw.Flush()
	cerr := closeOut()
	switch {
	case errors.Is(err, errPipeClosed):
		return nil
	case err != nil:
		return err
	case ferr != nil && !errors.Is(pipeErr(ferr), errPipeClosed):
		return ferr
	case cerr != nil:
		return cerr
	}
	for _, d := range st.Damaged {
		fmt.Fprintf(g.c.App.ErrWriter, "warning: %s; its blobs were read from git instead\n", d)
	}
	if o.stats {
		fmt.Fprintf(g.c.App.ErrWriter, "%d files (%d distinct blobs); %d blobs read (%d from the index's copies of their bytes): %d the trigram index could not rule out, %d it does not cover; %d files matched\n",
			st.Files, st.Blobs, st.Candidates+st.Unindexed, st.FromIndex, st.Candidates, st.Unindexed, st.Matched)
	}
	if st.Matched == 0 {
		return errNoResults
	}
	return nil
}

// blobSourceName is the name git prints for a file of a source.
func blobSourceName(src grep.GrepSource, path string) (name string, treeLen int) {
	if !src.Blob.IsZero() {
		return src.Name, 0
	}
	return src.Name + path, len(src.Name)
}

// commitOf is the commit a source names, for JSON.
func commitOf(src grep.GrepSource) plumbing.Hash {
	if src.Commit != nil {
		return src.Commit.Hash
	}
	return plumbing.ZeroHash
}

// attributes applies the working tree's git attributes, as git grep
// does: the diff attribute (and binary, which unsets it) decides whether
// a file is binary, and a diff driver makes -p and -W find functions with
// the chunker (where git uses the driver's regular expression).
func (g *grepRun) attributes(opts *grep.GrepOptions, r *grepRender) error {
	if g.repo == nil || g.repo.WorkTree == "" {
		return nil
	}
	files, err := g.attributesFiles(opts.Sources)
	if err != nil {
		return err
	}
	if names := opts.Pathspec.AttrNames(); len(names) > 0 {
		// :(attr:…) pathspecs.
		a, err := g.repo.WorktreeAttributesOf(files, names)
		if err != nil {
			return err
		}
		opts.Pathspec.Attr = a.Values
	}
	attrs, err := g.repo.WorktreeAttributes(files)
	if err != nil || attrs == nil {
		return err
	}
	cfg := gitConfig(g.repo)
	driver := func(name string, key string) string {
		if cfg == nil {
			return ""
		}
		return cfg.Raw.Section("diff").Subsection(name).Option(key)
	}
	opts.BinaryAttr = func(p string) int {
		d := attrs.Diff(p)
		if d.Binary < 0 && d.Name != "" && configBool(driver(d.Name, "binary")) {
			return 1
		}
		return d.Binary
	}
	if g.o.funcname || g.o.funcbody {
		r.defsOf = func(f *grep.GrepFile) []definition {
			if !opts.Sources[f.Source].Attributes {
				return nil
			}
			d := attrs.Diff(f.Path)
			if d.Name == "" || !userdiffDrivers[d.Name] && driver(d.Name, "xfuncname") == "" && driver(d.Name, "funcname") == "" {
				return nil
			}
			return definitions(f.Path, f.Content)
		}
	}
	return nil
}

// attributesFiles are the .gitattributes files git reads: the working
// tree's (the tracked ones, and untracked ones among the files
// --untracked reads) for every path it greps, whatever the revision.
func (g *grepRun) attributesFiles(sources []grep.GrepSource) ([]string, error) {
	files, err := g.repo.AttributesFiles()
	if err != nil {
		return nil, err
	}
	for _, s := range sources {
		for _, f := range s.Files {
			if gitindex.IsAttributesFile(f.Path) {
				files = append(files, f.Path)
			}
		}
	}
	return files, nil
}

// view indexes what the sources' commits lack (unless --no-update; blobs
// only, no vectors: grep reads the exact index) and opens them. The
// answer is complete without the index, so a running indexer is waited
// for a second at most, and a repository without an index is searched
// all the same.
func (g *grepRun) view(sources []grep.GrepSource, progress bool) (*store.View, error) {
	if g.repo == nil {
		return &store.View{}, nil
	}
	iopts := g.settings.indexOptions()
	if progress {
		iopts.Progress = newProgress(g.c.App.ErrWriter)
	}
	v, sum, err := indexer.Ensure(g.c.Context, g.repo, iopts, indexer.Request{Want: grep.PlanSources(sources), Parts: indexer.Exact, NoIndex: g.o.noUpdate, LockWait: time.Second})
	if err != nil {
		if g.o.noUpdate && errors.Is(err, store.ErrNoIndex) {
			return &store.View{Repo: g.repo}, nil
		}
		return nil, err
	}
	if sum != nil && sum.Repaired != "" {
		fmt.Fprintf(g.c.App.ErrWriter, "warning: %s\n", sum.Repaired)
	}
	return v, nil
}
