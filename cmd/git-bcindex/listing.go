package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/query"
	"github.com/bcindex/bcindex/search"
)

// listFlags are search's editor- and script-friendly output forms.
func listFlags() []cli.Flag {
	return []cli.Flag{
		&cli.BoolFlag{Name: "vimgrep", Usage: "print path:line:column:text for each matching line of each hit (as ripgrep --vimgrep), for editors' quickfix lists"},
		&cli.BoolFlag{Name: "files-with-matches", Aliases: []string{"l"}, Usage: "print only the paths of the files with hits, best first"},
		&cli.BoolFlag{Name: "null", Aliases: []string{"z"}, Usage: "end each path with NUL instead of ':' (or a newline with -l), unquoted, for scripts"},
	}
}

// listing reports whether a line-oriented output form was asked for.
func listing(c *cli.Context) bool { return c.Bool("vimgrep") || c.Bool("files-with-matches") }

// printResults prints hits in the form the flags ask for, through the pager
// and in colour when those apply.
func printResults(c *cli.Context, repo *gitindex.Repo, q *query.Query, hits []search.Hit, withRefs bool) error {
	if c.Bool("vimgrep") && c.Bool("files-with-matches") {
		return usageError{"--vimgrep and --files-with-matches are exclusive"}
	}
	o, err := openOutput(c, repo, q)
	if err != nil {
		return err
	}
	defer o.close()
	switch {
	case c.Bool("files-with-matches"):
		printFiles(o.w, o.paint, hits)
	case c.Bool("vimgrep"):
		printVimgrep(o.w, o.paint, q, hits)
	case withRefs:
		printHitsWithRefs(o.w, o.paint, hits)
	default:
		printHits(o.w, o.paint, hits)
	}
	return nil
}

// printFiles prints each path once, in the order of its best hit.
func printFiles(w io.Writer, p colorizer, hits []search.Hit) {
	seen := map[string]bool{}
	for _, h := range hits {
		if !seen[h.Path] {
			seen[h.Path] = true
			fmt.Fprint(w, p.path(h.Path, "\n"))
		}
	}
}

// printFileHits prints a file ranking (search --files): per file its path
// and best score, then its best chunks' lines, names and kinds; as JSON,
// one file a line with its hits.
func printFileHits(c *cli.Context, repo *gitindex.Repo, q *query.Query, files []search.FileHit, asJSON bool) error {
	if asJSON {
		enc := json.NewEncoder(c.App.Writer)
		for _, f := range files {
			if err := enc.Encode(f); err != nil {
				return err
			}
		}
		return nil
	}
	o, err := openOutput(c, repo, q)
	if err != nil {
		return err
	}
	defer o.close()
	p := o.paint
	for _, f := range files {
		fmt.Fprintf(o.w, "%s  %s\n", p.path(f.Path, ""), p.paint(sgrDim, fmt.Sprintf("%.4f", f.Score)))
		for _, h := range f.Hits {
			crumbs := h.Breadcrumb
			if len(crumbs) > 0 && crumbs[0] == h.Path {
				crumbs = crumbs[1:]
			}
			where := ""
			if len(crumbs) > 0 {
				where = p.paint(sgrSep, strings.Join(crumbs, " › ")) + "  "
			}
			fmt.Fprintf(o.w, "  %s  %s%s\n", p.paint(sgrLine, fmt.Sprintf("%d-%d", h.StartLine, h.EndLine)),
				where, p.paint(sgrDim, fmt.Sprintf("%s %.4f", h.Kind, h.Score)))
		}
	}
	return nil
}

// printVimgrep prints the lines of each hit's chunk that hold a query token,
// with the 1-based byte column of the first one; a hit with none (found by
// meaning alone) prints its first line at column 1, so every hit is listed.
func printVimgrep(w io.Writer, p colorizer, q *query.Query, hits []search.Hit) {
	// Chunks nest (a class and its methods): each line is listed once.
	seen := map[string]bool{}
	vimLine := func(path string, line, col int, text string) {
		key := fmt.Sprintf("%s:%d", path, line)
		if !seen[key] {
			seen[key] = true
			printVimLine(w, p, path, line, col, text)
		}
	}
	for _, h := range hits {
		lines := strings.Split(strings.TrimRight(h.Snippet, "\n"), "\n")
		printed := false
		first := ""
		for j, l := range lines {
			n := h.SnippetStart + j
			if n < h.StartLine || n > h.EndLine {
				continue
			}
			if first == "" {
				first = l
			}
			if at := q.FirstMark(l); at >= 0 {
				vimLine(h.Path, n, at+1, l)
				printed = true
			}
		}
		if !printed {
			vimLine(h.Path, h.StartLine, 1, first)
		}
	}
}

func printVimLine(w io.Writer, p colorizer, path string, line, col int, text string) {
	sep := p.paint(sgrSep, ":")
	fmt.Fprintf(w, "%s%s%s%d%s%s\n", p.path(path, ":"), p.paint(sgrLine, fmt.Sprint(line)), sep, col, sep, p.highlight(text))
}

// count spells n things: "1 new blob", "3 new blobs".
func count(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}
