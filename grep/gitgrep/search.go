package gitgrep

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/bcindex/bcindex/exact"
	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/grep"
	"github.com/bcindex/bcindex/pathspec"
	"github.com/bcindex/bcindex/query"
	"github.com/bcindex/bcindex/store"
)

// search runs the search and prints what it finds.
func (g *runner) search(sources []grep.Source, ps *pathspec.Set, prog *exact.Program) error {
	o := g.o
	if o.pager != nil {
		return g.openInPager(sources, ps, prog)
	}
	r, err := g.renderer(prog, sources)
	if err != nil {
		return err
	}
	opts := grep.Options{
		Sources: sources, Program: prog, Pathspec: ps, Render: r.render,
		MaxCount: max(o.maxCount, 0), Invert: o.unmatchName,
		FirstOnly: o.nameOnly || o.unmatchName || o.quiet,
		// Without context or function lines, only the selected lines
		// are printed: a large blob's pieces that cannot hold one are
		// not read.
		SelectedOnly: r.before <= 0 && r.after <= 0 && !r.funcname && !r.funcbody,
	}
	switch o.binary {
	case binaryText:
		opts.Binary = grep.BinaryText
	case binaryDefault:
		opts.Binary = grep.BinaryMatch
	}
	if err := g.globs(&opts.Paths); err != nil {
		return err
	}
	v, err := g.view(sources, !o.json)
	if err != nil {
		return err
	}
	defer v.Close()
	if err := g.attributes(&opts, r); err != nil {
		return err
	}
	var w io.Writer = g.env.Stdout
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
	st, err := grep.Grep(g.ctx, v, opts, func(f *grep.File) error {
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
	return g.report(st, false)
}

// blobSourceName is the name git prints for a file of a source.
func blobSourceName(src grep.Source, path string) (name string, treeLen int) {
	if !src.Blob.IsZero() {
		return src.Name, 0
	}
	return src.Name + path, len(src.Name)
}

// attributes applies the working tree's git attributes, as git grep
// does: the diff attribute (and binary, which unsets it) decides whether
// a file is binary, and a diff driver makes -p and -W find functions with
// the chunker (where git uses the driver's regular expression).
func (g *runner) attributes(opts *grep.Options, r *grepRender) error {
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
	cfg := g.env.Config
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
		r.defsOf = func(f *grep.File) []definition {
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
func (g *runner) attributesFiles(sources []grep.Source) ([]string, error) {
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
// answer is complete without the index, so a repository without an index
// is searched all the same.
func (g *runner) view(sources []grep.Source, progress bool) (*store.View, error) {
	if g.repo == nil {
		return &store.View{}, nil
	}
	v, err := g.env.Open(g.ctx, grep.PlanSources(sources), progress, g.o.noUpdate)
	if err != nil {
		if g.o.noUpdate && errors.Is(err, store.ErrNoIndex) {
			return &store.View{Repo: g.repo}, nil
		}
		return nil, err
	}
	return v, nil
}

// globs adds bcindex's --path and --exclude globs to pf.
func (g *runner) globs(pf *query.PathFilter) error {
	for _, p := range g.o.paths {
		if err := pf.AddGlob(p); err != nil {
			return ArgError{err.Error()}
		}
	}
	for _, p := range g.o.excludes {
		if err := pf.AddExclude(p); err != nil {
			return ArgError{err.Error()}
		}
	}
	return nil
}

// report notes on Stderr the damaged segments a search read around and,
// with --stats, how the index answered (revisions: name their count);
// ErrNoMatch when it matched nothing.
func (g *runner) report(st *grep.Stats, revisions bool) error {
	for _, d := range st.Damaged {
		fmt.Fprintf(g.env.Stderr, "warning: %s; its blobs were read from git instead\n", d)
	}
	if g.o.stats {
		in := ""
		if revisions {
			in = fmt.Sprintf(" in %d revisions", len(st.Revisions))
		}
		fmt.Fprintf(g.env.Stderr, "%d files (%d distinct blobs)%s; %d blobs read (%d from the index's copies of their bytes, %d bytes of them decoded): %d the trigram index could not rule out, %d it does not cover; %d files matched\n",
			st.Files, st.Blobs, in, st.Candidates+st.Unindexed, st.FromIndex, st.Decoded, st.Candidates, st.Unindexed, st.Matched)
	}
	if st.Matched == 0 {
		return ErrNoMatch
	}
	return nil
}
