package mcp

import (
	"context"
	"errors"
	"fmt"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/bcindex/bcindex/query"
	"github.com/bcindex/bcindex/search"
)

// errQueryRequired refuses a search with a blank query.
var errQueryRequired = errors.New("query is required: a symbol name, keywords or a description")

// RemoteSearcher searches every repository published to the organisation's
// cluster. The command wires in the cluster client's implementation, so
// that this package, linked into every command, does not link the client.
type RemoteSearcher interface {
	// SearchRemote returns the hits and a warning about the cluster ("" if none).
	SearchRemote(ctx context.Context, q RemoteQuery) ([]RemoteHit, string, error)
}

// RemoteQuery is a search_remote call, validated.
type RemoteQuery struct {
	Query            query.Query
	K                int
	Repo             string   // glob over repository names; "" = all
	Refs             []string // published refs, names or globs; none = every one
	Path, Lang, Kind string
	MaxLines         int
}

// RemoteHit is a hit in the local format, with its repository.
type RemoteHit struct {
	search.Hit
	Repo string
}

type remoteIn struct {
	Query    string   `json:"query" jsonschema:"what to look for: a symbol name, keywords, or a description in plain words"`
	K        int      `json:"k,omitempty" jsonschema:"number of hits; default 10, ceiling 100"`
	Repo     string   `json:"repo,omitempty" jsonschema:"only repositories matching this glob, e.g. github.com/acme/*"`
	Refs     []string `json:"refs,omitempty" jsonschema:"only these published refs: branch or tag names, or globs (release/*); default every published ref"`
	Path     string   `json:"path,omitempty" jsonschema:"only files matching this glob, e.g. pkg/**/*.go or *.py"`
	Lang     string   `json:"lang,omitempty" jsonschema:"only chunks in this language: go, python, typescript, markdown..."`
	Kind     string   `json:"kind,omitempty" jsonschema:"only chunks of this kind: function, method, class, type, section..."`
	MaxLines int      `json:"max_lines,omitempty" jsonschema:"snippet lines per hit; default 12, ceiling 400"`
}

type remoteHit struct {
	Repo string `json:"repo"`
	hitOut
}

type remoteOut struct {
	Hits []remoteHit `json:"hits"`
}

// searchRemote searches every repository published to the cluster.
func (s *Server) searchRemote(ctx context.Context, req *sdk.CallToolRequest, in remoteIn) (*sdk.CallToolResult, remoteOut, error) {
	out := remoteOut{Hits: []remoteHit{}}
	q, err := query.Parse(in.Query)
	if err != nil {
		return nil, out, errQueryRequired
	}
	k, err := intArg("k", in.K, searchK, searchKMax)
	if err != nil {
		return nil, out, err
	}
	maxLines, err := intArg("max_lines", in.MaxLines, 12, 400)
	if err != nil {
		return nil, out, err
	}
	hits, warning, err := s.opts.Remote.SearchRemote(ctx, RemoteQuery{Query: q, K: k, Repo: in.Repo, Refs: in.Refs,
		Path: in.Path, Lang: in.Lang, Kind: in.Kind, MaxLines: maxLines})
	if err != nil {
		return nil, out, err
	}
	var b strings.Builder
	for _, h := range hits {
		var snip strings.Builder
		for i, l := range strings.Split(strings.TrimRight(h.Snippet, "\n"), "\n") {
			fmt.Fprintf(&snip, "%6d\t%s\n", h.SnippetStart+i, l)
		}
		out.Hits = append(out.Hits, remoteHit{Repo: h.Repo, hitOut: hitOut{Path: h.Path, StartLine: h.StartLine, EndLine: h.EndLine,
			Name: h.Name, Kind: h.Kind, Language: h.Language, Signature: h.Signature, Breadcrumb: h.Breadcrumb, Score: h.Score,
			Snippet: snip.String(), Rev: h.Ref, Commit: h.Commit, Blob: h.Blob, ChunkID: h.ChunkID, AlsoIn: h.AlsoIn}})
		fmt.Fprintf(&b, "%s@%s:%s:%d-%d  %s %s\n%s\n", h.Repo, h.Ref, h.Path, h.StartLine, h.EndLine, h.Kind, h.Name, snip.String())
	}
	if len(hits) == 0 {
		b.WriteString("no hits\n")
	}
	if warning != "" {
		b.WriteString("warning: " + warning + "\n")
	}
	return text(b.String()), out, nil
}
