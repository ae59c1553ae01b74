//go:build !nocluster

package main

import (
	"encoding/json"
	"fmt"

	"github.com/schollz/progressbar/v3"
	"github.com/urfave/cli/v2"

	"github.com/bcindex/bcindex/cluster"
	"github.com/bcindex/bcindex/enhance"
	"github.com/bcindex/bcindex/gitindex"
)

func runPublish(c *cli.Context) error {
	repo, s, rs, err := openWithRemote(c)
	if err != nil {
		return err
	}
	name := c.String("name")
	if name == "" {
		name = rs.name
	}
	var refs, revs []string
	if sel := refSelection(c); sel.Empty() {
		refs, revs = []string{currentBranch(repo)}, []string{"HEAD"}
	} else {
		expanded, err := repo.ExpandRefs(sel)
		if err != nil {
			return err
		}
		for _, r := range expanded {
			refs, revs = append(refs, r.Name), append(revs, r.Rev)
		}
	}
	cl, err := cluster.OpenWith(c.Context, rs.url, cluster.Options{GRPC: rs.grpc})
	if err != nil {
		return err
	}
	src := cluster.NewLocal(repo, s.emb, s.indexOptions())
	defer src.Close()
	opts := cluster.PublishOptions{Repo: name, Refs: refs, Revs: revs}
	if !c.Bool("json") {
		opts.Progress = publishProgress(c)
	}
	sums, err := cluster.Publish(c.Context, cl, src, opts)
	var srep *cluster.SummaryReport
	if err == nil {
		srep, err = publishSummaries(c, repo, cl, src, opts.Progress)
	}
	if w := cl.Warning(); w != "" {
		warnOnce(c.App.ErrWriter, repo.IndexDir, rs.url, w)
	}
	for _, sum := range sums {
		if c.Bool("json") {
			if err := json.NewEncoder(c.App.Writer).Encode(sum); err != nil {
				return err
			}
			continue
		}
		if sum.Unchanged {
			fmt.Fprintf(c.App.Writer, "%s %s: %s already published (generation %d)", sum.Repo, sum.Ref, short(sum.Commit), sum.Generation)
			if sum.Repaired > 0 {
				// Left by a killed run; readers never saw them.
				fmt.Fprintf(c.App.Writer, "; repaired %d file objects", sum.Repaired)
			}
			fmt.Fprintln(c.App.Writer)
			continue
		}
		fmt.Fprintf(c.App.Writer, "%s %s: published %s as generation %d: %d files (+%d -%d), %d chunk objects sent, %d already there\n",
			sum.Repo, sum.Ref, short(sum.Commit), sum.Generation, sum.Files, sum.FilesAdded, sum.FilesRemoved, sum.ChunksNew, sum.ChunksKnown)
	}
	if srep != nil && srep.Local > 0 {
		if c.Bool("json") {
			return json.NewEncoder(c.App.Writer).Encode(srep)
		}
		fmt.Fprintf(c.App.Writer, "generated summaries by %s (prompt %d): %d sent, %d already there\n", srep.Model, srep.Prompt, srep.Sent, srep.Present)
	}
	return err
}

// publishSummaries sends the summaries bcindex.enhance.model wrote under
// the current prompt version that the cluster lacks, after the refs, so
// that summaries written since the chunks were published arrive too;
// nil without a configured model.
func publishSummaries(c *cli.Context, repo *gitindex.Repo, cl *cluster.Client, src *cluster.Local, progress cluster.Progress) (*cluster.SummaryReport, error) {
	model, err := enhanceModel(repo)
	if err != nil || model == "" {
		return nil, err
	}
	sums, err := src.Summaries(c.Context, model, enhance.PromptVersion, lockWait(c))
	if err != nil {
		return nil, err
	}
	return cluster.PublishSummaries(c.Context, cl, sums, 0, progress)
}

// publishProgress draws a bar per stage on a terminal; nil when piped.
func publishProgress(c *cli.Context) cluster.Progress {
	if newProgress(c.App.ErrWriter) == nil {
		return nil
	}
	var bar *progressbar.ProgressBar
	stage := ""
	return func(s string, done, total int) {
		if s != stage || bar == nil {
			if bar != nil {
				bar.Finish()
			}
			stage = s
			n := total
			if n <= 0 {
				n = -1 // unknown: a spinner
			}
			bar = progressbar.NewOptions(n, progressbar.OptionSetWriter(c.App.ErrWriter),
				progressbar.OptionSetDescription(s), progressbar.OptionShowCount(), progressbar.OptionThrottle(100_000_000),
				progressbar.OptionClearOnFinish())
		}
		bar.Set(done)
		if total > 0 && done >= total {
			bar.Finish()
		}
	}
}
