package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/search"
)

// refsShown is how many revision names a hit lists before "+N more".
const refsShown = 3

// groupByRef reads --group-by, whose one value is "ref".
func groupByRef(c *cli.Context) (bool, error) {
	switch g := c.String("group-by"); g {
	case "":
		return false, nil
	case "ref":
		return true, nil
	default:
		return false, usageError{fmt.Sprintf("--group-by %q: the one grouping is ref", g)}
	}
}

// revLabel names a selection in progress and warning lines.
func revLabel(sel gitindex.RefSelection) string {
	var parts []string
	parts = append(parts, sel.Patterns...)
	if sel.All {
		parts = append(parts, "every ref")
	} else {
		if sel.AllBranches {
			parts = append(parts, "every branch")
		}
		if sel.Tags {
			parts = append(parts, "every tag")
		}
	}
	if len(parts) == 0 {
		return "HEAD"
	}
	return strings.Join(parts, ", ")
}

// compactNames lists names, the first few then "+N more".
func compactNames(names []string) string {
	if len(names) <= refsShown+1 {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s +%d more", strings.Join(names[:refsShown], ", "), len(names)-refsShown)
}

// refLines says which revisions hold a hit: "in main, feat, v1.2 +5 more",
// then, for each other place the same content sits in some of them,
// "at old/path.go:3-9 in v1.0, v1.1".
func refLines(h search.Hit) []string {
	var here []string
	var places []string
	at := map[string][]string{}
	for _, r := range h.Refs {
		if r.Path == h.Path && r.StartLine == h.StartLine {
			here = append(here, r.Name)
			continue
		}
		k := fmt.Sprintf("%s:%d-%d", r.Path, r.StartLine, r.EndLine)
		if _, ok := at[k]; !ok {
			places = append(places, k)
		}
		at[k] = append(at[k], r.Name)
	}
	var out []string
	if len(here) > 0 {
		out = append(out, "in "+compactNames(here))
	}
	for _, k := range places {
		out = append(out, "at "+k+" in "+compactNames(at[k]))
	}
	return out
}

// printHitsWithRefs prints hits as printHits does, each followed by the
// revisions that hold it.
func printHitsWithRefs(w io.Writer, p colorizer, hits []search.Hit) {
	for i, h := range hits {
		if i > 0 {
			fmt.Fprintln(w)
		}
		printHits(w, p, hits[i:i+1])
		for _, l := range refLines(h) {
			fmt.Fprintln(w, p.paint(sgrDim, "        "+l))
		}
	}
}

// printByRef prints one section per searched revision with the hits it
// holds, best first, at their paths and lines in that revision. A hit's
// code is shown once, under the first revision that holds it where the
// hit's snippet was read; elsewhere its location line stands for it. With
// JSON, each (revision, hit) pair is one line, located in that revision.
func printByRef(w io.Writer, p colorizer, res *search.Result, asJSON bool) error {
	enc := json.NewEncoder(w)
	head := func(s string) string { return p.paint(sgrBold, s) }
	loc := func(s string) string { return p.paint(sgrPath, s) }
	dim := func(s string) string { return p.paint(sgrDim, s) }
	shown := make([]bool, len(res.Hits))
	for s, rev := range res.Revisions {
		first, gap := true, false
		for i, h := range res.Hits {
			for _, r := range h.Refs {
				if r.Name != rev.Rev || r.Commit != rev.Hash.String() {
					continue
				}
				if asJSON {
					g := h
					g.Ref, g.Commit, g.Path, g.StartLine, g.EndLine = r.Name, r.Commit, r.Path, r.StartLine, r.EndLine
					if err := enc.Encode(g); err != nil {
						return err
					}
					break
				}
				if first {
					if s > 0 {
						fmt.Fprintln(w)
					}
					fmt.Fprintln(w, head(fmt.Sprintf("── %s (%.12s)", rev.Rev, rev.Hash)))
					first = false
				}
				if gap {
					fmt.Fprintln(w)
				}
				if !shown[i] && r.Path == h.Path && r.StartLine == h.StartLine {
					shown[i], gap = true, true
					printHits(w, p, res.Hits[i:i+1])
					break
				}
				gap = false
				fmt.Fprintf(w, "%s  %s  %s\n", loc(fmt.Sprintf("%s:%d-%d", r.Path, r.StartLine, r.EndLine)),
					strings.Join(h.Breadcrumb[1:], " › "), dim(fmt.Sprintf("%s %.4f", h.Kind, h.Score)))
				break
			}
		}
	}
	return nil
}
