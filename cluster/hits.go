package cluster

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/weaviate/weaviate-go-client/v5/weaviate/filters"

	"github.com/bcindex/bcindex/chunk/vocab"
	userq "github.com/bcindex/bcindex/query" // the cluster's own query is a Weaviate request
)

// maxAlsoIn caps the other places listed for a chunk found in many forks.
const maxAlsoIn = 20

// place is one occurrence of a chunk in a visible file.
type place struct {
	repo, ref, commit, path, blob string
	span                          [4]int
	crumb                         string
}

// placeChunks finds where the candidate chunks occur in the visible
// generations of refs, keeps those passing the path filter, and turns each
// chunk into one hit at its first place (by repository, ref, path), with
// the others in also_in: the hits by the chunk's index in rs.
func (c *Client) placeChunks(ctx context.Context, rs []ranked, refs map[[2]string]publishedRef, opts SearchOptions) (map[int]Hit, error) {
	if len(rs) == 0 {
		return nil, nil
	}
	ids := make([]string, len(rs))
	for i, r := range rs {
		ids[i] = r.id
	}
	conds := []*filters.WhereBuilder{filters.Where().WithPath([]string{"chunks"}).WithOperator(filters.ContainsAny).WithValueText(ids...)}
	if r := singleRef(opts.Refs); r != "" {
		conds = append(conds, eq("ref", r))
	}
	if opts.Repo != "" && !strings.ContainsAny(opts.Repo, "*?[{\\") {
		conds = append(conds, eq("repo", opts.Repo))
	}
	rows, err := c.get(ctx, query{class: FileClass, fields: []string{"repo", "ref", "path", "blob", "chunks", "spans", "crumbs", "from", "until"},
		where: and(conds...), limit: 10000})
	if err != nil {
		return nil, err
	}
	want := make(map[string]bool, len(ids))
	for _, id := range ids {
		want[id] = true
	}
	paths, err := userq.NewPathFilter(opts.Path, opts.Exclude)
	if err != nil {
		return nil, err
	}
	var visible []map[string]any
	for _, f := range rows {
		pr, ok := refs[[2]string{str(f, "repo"), str(f, "ref")}]
		if !ok || num(f, "from") > pr.gen || num(f, "until") <= pr.gen {
			continue // another generation, or a ref outside the filters
		}
		if !paths.Match(str(f, "path")) {
			continue
		}
		visible = append(visible, f)
	}
	newest, err := c.newestFiles(ctx, visible, refs)
	if err != nil {
		return nil, err
	}
	places := map[string][]place{}
	for _, f := range visible {
		pr := refs[[2]string{str(f, "repo"), str(f, "ref")}]
		path := str(f, "path")
		if num(f, "from") < newest[[3]string{pr.repo, pr.ref, path}] {
			continue // superseded: an older version a replica passed back
		}
		chunks, spans, crumbs := strs(f, "chunks"), nums(f, "spans"), strs(f, "crumbs")
		if len(spans) != 4*len(chunks) || len(crumbs) != len(chunks) {
			return nil, fmt.Errorf("file %s of %s@%s at %s is malformed: publish it again", path, pr.repo, pr.ref, c.url)
		}
		for i, id := range chunks {
			if !want[id] {
				continue
			}
			places[id] = append(places[id], place{repo: pr.repo, ref: pr.ref, commit: pr.commit, path: path, blob: str(f, "blob"),
				span: [4]int{spans[4*i], spans[4*i+1], spans[4*i+2], spans[4*i+3]}, crumb: crumbs[i]})
		}
	}
	out := map[int]Hit{}
	for i, r := range rs {
		ps := places[r.id]
		if len(ps) == 0 {
			continue
		}
		sort.Slice(ps, func(i, j int) bool {
			a, b := ps[i], ps[j]
			if a.repo != b.repo {
				return a.repo < b.repo
			}
			if a.ref != b.ref {
				return a.ref < b.ref
			}
			if a.path != b.path {
				return a.path < b.path
			}
			return a.span[0] < b.span[0]
		})
		out[i] = makeHit(r, ps, opts)
	}
	return out, nil
}

// newestFiles returns, for each (repository, ref, path) of files, the
// highest generation a visible file object of that path starts at. A path
// holds one blob per commit, so two visible objects of one path mean one is
// stale: a replica that was down while it was marked gone and deleted can
// pass it back to the others when it catches up. The newer one is the
// commit's.
func (c *Client) newestFiles(ctx context.Context, files []map[string]any, refs map[[2]string]publishedRef) (map[[3]string]int64, error) {
	out := map[[3]string]int64{}
	var paths []string
	for _, f := range files {
		k := [3]string{str(f, "repo"), str(f, "ref"), str(f, "path")}
		if _, ok := out[k]; !ok {
			out[k] = 0
			paths = append(paths, k[2])
		}
	}
	for s := 0; s < len(paths); s += 500 {
		part := paths[s:min(s+500, len(paths))]
		rows, err := c.get(ctx, query{class: FileClass, fields: []string{"repo", "ref", "path", "from", "until"},
			where: filters.Where().WithPath([]string{"path"}).WithOperator(filters.ContainsAny).WithValueText(part...), limit: 10000})
		if err != nil {
			return nil, err
		}
		for _, f := range rows {
			k := [3]string{str(f, "repo"), str(f, "ref"), str(f, "path")}
			pr, ok := refs[[2]string{k[0], k[1]}]
			cur, want := out[k]
			if !want || !ok || num(f, "from") > pr.gen || num(f, "until") <= pr.gen {
				continue
			}
			out[k] = max(cur, num(f, "from"))
		}
	}
	return out, nil
}

func makeHit(r ranked, ps []place, opts SearchOptions) Hit {
	p := ps[0]
	h := Hit{Repo: p.repo}
	h.Path, h.Ref, h.Commit, h.Blob = p.path, p.ref, p.commit, p.blob
	h.StartLine, h.EndLine, h.StartByte, h.EndByte = p.span[0], p.span[1], p.span[2], p.span[3]
	h.Name, h.Kind, h.Language, h.Signature = str(r.props, "name"), str(r.props, "kind"), str(r.props, "language"), str(r.props, "signature")
	h.Doc = str(r.props, "doc")
	h.ContentHash = str(r.props, "hash")
	h.ChunkID = fmt.Sprintf("%s:%d-%d", p.blob, p.span[2], p.span[3])
	h.Breadcrumb = []string{p.path}
	if p.crumb != "" {
		parts := strings.Split(p.crumb, " › ")
		h.Breadcrumb = append(h.Breadcrumb, parts...)
		h.Parent = parts[len(parts)-1]
	}
	if h.Kind != vocab.KindFile && h.Name != "" {
		h.Breadcrumb = append(h.Breadcrumb, h.Name)
	}
	for _, o := range ps[1:] {
		if len(h.AlsoIn) == maxAlsoIn {
			h.AlsoIn = append(h.AlsoIn, fmt.Sprintf("… %d more", len(ps)-1-maxAlsoIn))
			break
		}
		h.AlsoIn = append(h.AlsoIn, fmt.Sprintf("%s@%s:%s:%d-%d", o.repo, o.ref, o.path, o.span[0], o.span[1]))
	}
	h.Snippet, h.SnippetStart = snippet(str(r.props, "text"), opts.MaxLines), h.StartLine
	return h
}

// snippet is the chunk's text (the cluster holds no context around it),
// capped at maxLines lines (0: all).
func snippet(text string, maxLines int) string {
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	if maxLines > 0 && len(lines) > maxLines {
		lines = lines[:maxLines]
	}
	return strings.Join(lines, "\n") + "\n"
}
