package main

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/indexer"
	"github.com/bcindex/bcindex/store"
)

func statusCommand() *cli.Command {
	return &cli.Command{
		Name:  "status",
		Usage: "show how far the index covers a revision (default HEAD)",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "ref", Aliases: []string{"r"}, Value: "HEAD", Usage: "revision to report on"},
			&cli.BoolFlag{Name: "json", Usage: "print JSON"},
			&cli.BoolFlag{Name: "errors", Usage: "list the files with syntax errors"},
		},
		Action: func(c *cli.Context) error {
			repo, s, err := openWithSettings(c)
			if err != nil {
				return err
			}
			model := ""
			if e := s.embedder(); e != nil {
				model = e.ID()
			}
			st, err := indexer.StatusOf(repo, c.String("ref"), model)
			if err != nil {
				return err
			}
			if model == "" {
				st.Model = "(vectors off: bcindex.vectors=false)"
			}
			if c.Bool("errors") {
				return printSyntaxErrors(c, repo)
			}
			st.Hooks = hooksInstalled(repo)
			if st.Damaged != "" {
				fmt.Fprintf(c.App.ErrWriter, "warning: the index database is damaged (%s): `git bcindex index` sets it aside and rebuilds it from git\n", st.Damaged)
			}
			w := c.App.Writer
			if c.Bool("json") {
				b, _ := json.Marshal(st)
				fmt.Fprintln(w, string(b))
				return nil
			}
			state := "up to date"
			switch {
			case st.Damaged != "":
				state = "damaged (run `git bcindex index` to rebuild from git)"
			case st.Segments == 0 && st.Pending > 0:
				state = "not indexed (run `git bcindex index`)"
			case st.Pending > 0:
				state = fmt.Sprintf("%d blobs pending (run `git bcindex index`)", st.Pending)
			case st.VectorsMissing:
				state = vectorsMissingLine(st)
			}
			if st.Indexing {
				state += "; an indexer is running"
			}
			fmt.Fprintf(w, "revision   %s (%s)\n", st.Rev, st.Commit)
			fmt.Fprintf(w, "state      %s\n", state)
			fmt.Fprintf(w, "files      %d, blobs %d, chunks %d, with vectors %d\n", st.Files, st.Blobs, st.Chunks, st.Vectors)
			if len(st.Skipped) > 0 {
				var parts []string
				for k, n := range st.Skipped {
					parts = append(parts, fmt.Sprintf("%s %d", k, n))
				}
				sort.Strings(parts)
				fmt.Fprintf(w, "skipped    %s\n", strings.Join(parts, ", "))
			}
			fmt.Fprintf(w, "model      %s\n", st.Model)
			printCoverage(w, st)
			fmt.Fprintf(w, "store      %s, %.1f MB, %d segments, schema %d\n", st.IndexDir, float64(st.StoreBytes)/1e6, st.Segments, st.Schema)
			if p := st.StoreParts; p != nil {
				fmt.Fprintf(w, "  parts    %s\n", storePartsLine(p))
			}
			fmt.Fprintf(w, "hooks      %s\n", map[bool]string{true: "installed", false: "not installed (`git bcindex hooks install` keeps the index fresh)"}[st.Hooks])
			return nil
		},
	}
}

// printSyntaxErrors lists the files of --ref with syntax errors.
func printSyntaxErrors(c *cli.Context, repo *gitindex.Repo) error {
	errs, err := indexer.SyntaxErrors(repo, c.String("ref"))
	if err != nil {
		return err
	}
	skipped, err := repo.PathErrors(c.String("ref"))
	if err != nil {
		return err
	}
	w := c.App.Writer
	if c.Bool("json") {
		enc := json.NewEncoder(w)
		for _, e := range errs {
			if err := enc.Encode(e); err != nil {
				return err
			}
		}
		for _, e := range skipped {
			if err := enc.Encode(e); err != nil {
				return err
			}
		}
		return nil
	}
	for _, e := range errs {
		level := "minor"
		if e.Severe {
			level = "severe"
		}
		fmt.Fprintf(w, "%s\t%s\t%d errors\t%s\n", quotePath(e.Path), level, e.Errors, e.Detail)
	}
	if len(errs) == 0 {
		fmt.Fprintln(w, "no indexed file of this revision has syntax errors")
	}
	for _, e := range skipped {
		fmt.Fprintf(w, "%s\tskipped\t%s: the path %s\n", quotePath(e.Path), e.Skipped, e.Detail)
	}
	return nil
}

// storePartsLine says where the store's bytes go, largest parts first.
func storePartsLine(p *store.Parts) string {
	parts := []struct {
		name string
		n    int64
	}{
		{fmt.Sprintf("vectors (%d rows)", p.VectorRows), p.Vectors},
		{"log beyond vectors", p.LogOther()},
		{"chunks", p.Chunks},
		{"postings", p.Postings},
		{"trigrams", p.Trigrams},
		{"content", p.Content},
		{"records", p.Tables + p.DBOther},
		{"trees", p.Trees},
		{"changes", p.Changes},
		{"other", p.Other + p.DeadSegments},
	}
	sort.SliceStable(parts, func(i, j int) bool { return parts[i].n > parts[j].n })
	var out []string
	for _, x := range parts {
		if x.n > 0 {
			out = append(out, fmt.Sprintf("%s %.1f MB", x.name, float64(x.n)/1e6))
		}
	}
	return strings.Join(out, ", ")
}
