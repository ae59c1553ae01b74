package search

import (
	"context"

	"github.com/bcindex/bcindex/store"
)

// ChunkSpan is where one chunk a search can return lies.
type ChunkSpan struct {
	Path               string
	StartLine, EndLine int
	Kind, Name         string
}

// ChunkSpans lists every chunk of the first revision of rd that a search
// can return, once per path that holds it: what a benchmark needs to tell
// a target the index covers from one it cannot find at all.
func ChunkSpans(ctx context.Context, rd *store.View) ([]ChunkSpan, error) {
	opts := Options{Query: "-"}
	if err := checkOptions(&opts); err != nil {
		return nil, err
	}
	commit := rd.Commit
	if len(rd.Want.Commits) > 0 {
		commit = rd.Want.Commits[0]
	}
	v := viewOf(rd.Repo, commit, rd, 1, &opts)
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
