package search

import (
	"context"

	"github.com/bcindex/bcindex/gitindex"
)

// ChunkSpan is where one chunk a search can return lies.
type ChunkSpan struct {
	Path               string
	StartLine, EndLine int
	Kind, Name         string
}

// ChunkSpans lists every chunk of an indexed revision that a search can
// return, once per path that holds it: what a benchmark needs to tell a
// target the index covers from one it cannot find at all. It indexes
// nothing (the revision must be indexed).
func ChunkSpans(ctx context.Context, repo *gitindex.Repo, rev string) ([]ChunkSpan, error) {
	opts := Options{Query: "-", Rev: rev, NoIndex: true}
	if err := checkOptions(&opts); err != nil {
		return nil, err
	}
	commits, err := resolveAll(repo, []string{opts.Rev})
	if err != nil {
		return nil, err
	}
	res := &Result{}
	rd, err := ready(ctx, repo, commits, &opts, res)
	if err != nil {
		return nil, err
	}
	defer rd.Snap.Close()
	v := viewOf(repo, commits[0], rd, 1, &opts)
	var out []ChunkSpan
	for s, seg := range v.snap.Segments {
		allow := v.allow[s]
		for r, ok := allow.NextSet(0); ok; r, ok = allow.NextSet(r + 1) {
			b, ok := v.blobAt(s, int(r))
			if !ok {
				continue
			}
			row := seg.Row(int(r))
			for _, p := range b.paths {
				out = append(out, ChunkSpan{Path: p, StartLine: row.StartLine, EndLine: row.EndLine, Kind: row.Kind, Name: row.Name})
			}
		}
	}
	return out, ctx.Err()
}
