package relevance

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// WriteText writes the report as tables: NDCG@10 per language, category
// and subset for every mode (and the reference on the same repositories),
// the hybrid's and BM25's other measures, then every repository.
func (r *Report) WriteText(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "suite %s: %d repositories, %d queries; model %s; %s", r.Suite, len(r.All.Repos), r.All.Modes[r.Modes[0]].Queries, r.Model, r.Elapsed)
	if r.Load != "" {
		fmt.Fprintf(tw, "; load %s", r.Load)
	}
	fmt.Fprintln(tw)
	for _, s := range r.Skipped {
		fmt.Fprintf(tw, "skipped %s: %s\n", s.Name, s.Reason)
	}
	hasRef := r.All.Reference != nil
	head := func(title string) {
		fmt.Fprintf(tw, "\n%s\trepos\tqueries", title)
		for _, m := range r.Modes {
			fmt.Fprintf(tw, "\t%s", m)
		}
		if hasRef {
			fmt.Fprint(tw, "\treference")
		}
		fmt.Fprintln(tw, "\t")
	}
	row := func(g Group) {
		first := g.Modes[r.Modes[0]]
		fmt.Fprintf(tw, "%s\t%d\t%d", g.Name, len(g.Repos), first.Queries)
		for _, m := range r.Modes {
			if x, ok := g.Modes[m]; ok {
				fmt.Fprintf(tw, "\t%.3f", x.NDCG10)
			} else {
				fmt.Fprint(tw, "\t-")
			}
		}
		if hasRef {
			if g.Reference != nil {
				fmt.Fprintf(tw, "\t%.3f", *g.Reference)
			} else {
				fmt.Fprint(tw, "\t-")
			}
		}
		fmt.Fprintln(tw, "\t")
	}
	head("NDCG@10 by language")
	for _, g := range r.ByLanguage {
		row(g)
	}
	row(r.All)
	head("NDCG@10 by category")
	for _, g := range r.ByCategory {
		row(g)
	}
	if len(r.Subsets) > 0 {
		head("NDCG@10 by subset")
		for _, g := range r.Subsets {
			row(g)
		}
	}
	fmt.Fprint(tw, "\nall\tNDCG@10\tNDCG@5\tfile hit@1\tfile hit@3\t\n")
	for _, m := range r.Modes {
		x := r.All.Modes[m]
		fmt.Fprintf(tw, "%s\t%.3f\t%.3f\t%.3f\t%.3f\t\n", m, x.NDCG10, x.NDCG5, x.Hit1, x.Hit3)
	}
	fmt.Fprintf(tw, "\nindex (cold, in-process) mean %.0f ms; hybrid query p50 mean %.2f ms\n", r.All.IndexMs, r.All.P50ms)
	if len(r.Repos) == 0 {
		return tw.Flush()
	}
	fmt.Fprintf(tw, "\nrepository\tlanguage\tchunks\tindex ms\tp50 ms\t%s", strings.Join(r.Modes, "\t"))
	if hasRef {
		fmt.Fprint(tw, "\treference")
	}
	fmt.Fprintln(tw, "\t")
	for _, rr := range r.Repos {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%.0f\t%.2f", rr.Name, rr.Language, rr.Chunks, rr.IndexMs, rr.P50ms)
		for _, m := range r.Modes {
			fmt.Fprintf(tw, "\t%.3f", rr.Modes[m].NDCG10)
		}
		if hasRef {
			if rr.Reference != nil {
				fmt.Fprintf(tw, "\t%.3f", rr.Reference.NDCG10)
			} else {
				fmt.Fprint(tw, "\t-")
			}
		}
		fmt.Fprintln(tw, "\t")
	}
	return tw.Flush()
}
