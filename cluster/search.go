package cluster

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/weaviate/weaviate-go-client/v5/weaviate/filters"
	"github.com/weaviate/weaviate-go-client/v5/weaviate/graphql"

	"github.com/bcindex/bcindex/embed"
	userq "github.com/bcindex/bcindex/query" // the cluster's own query is a Weaviate request
	"github.com/bcindex/bcindex/search"
)

// SearchOptions of a search across the cluster.
type SearchOptions struct {
	// Query is the text to search for, parsed once where the search
	// starts; a caller that parsed it already passes Parsed instead.
	Query    string
	Parsed   *userq.Query
	K        int      // hits; default 10
	Repo     string   // glob over repository names ("team/*"); "" = all
	Refs     []string // only these published refs (names or globs: "main", "release/*"); none = every one
	Path     string   // glob over paths, as in local search ("!GLOB" excludes)
	Exclude  []string // globs of paths to leave out, as in local search
	Lang     string
	Kind     string
	MaxLines int // snippet lines of the chunk itself; 0 = whole chunk
	// Embedder computes the query vector; it must be the model the
	// repositories were published with. nil: BM25 only.
	Embedder embed.Embedder
	// Alpha weighs the vector side of the hybrid query (0 = BM25 only,
	// 1 = vector only); 0 means DefaultAlpha.
	Alpha float32
	// NoSummaries leaves the generated summaries published with the
	// chunks out of the hits; SummaryModel is the chat model whose summary
	// a hit shows when the cluster has several ("" = any).
	NoSummaries  bool
	SummaryModel string
}

// DefaultAlpha weighs the vector side of the cluster's hybrid query. It
// was chosen on the dev half of the quality suite (doc/cluster.md): 0.3
// ranked best with docs kept, 0.6 with docs stripped, and 0.5 came
// nearest to local search in both.
const DefaultAlpha = 0.5

// Hit is a search hit with the repository it is in.
type Hit struct {
	search.Hit
	Repo string `json:"repo"`
}

// Search runs a hybrid query over every published repository matching
// opts and returns hits in the local hit format.
func Search(ctx context.Context, c *Client, opts SearchOptions) ([]Hit, error) {
	q, err := userq.Of(opts.Query, opts.Parsed, userq.Parse)
	if err != nil {
		return nil, err
	}
	opts.Query, opts.Parsed = q.Raw, q
	if opts.K <= 0 {
		opts.K = 10
	}
	if opts.Alpha == 0 {
		opts.Alpha = DefaultAlpha
	}
	for _, g := range append([]string{opts.Repo}, opts.Refs...) {
		if g != "" && !doublestar.ValidatePattern(g) {
			return nil, fmt.Errorf("invalid glob %q", g)
		}
	}
	if _, err := userq.NewPathFilter(opts.Path, opts.Exclude); err != nil {
		return nil, err
	}
	missing, err := c.checkSchema(ctx)
	if err != nil {
		return nil, err
	}
	model := "none"
	var vec []float32
	if opts.Embedder != nil {
		model = opts.Embedder.ID()
		vs, err := opts.Embedder.Embed(ctx, []string{opts.Query}, embed.RoleQuery)
		if err != nil {
			return nil, fmt.Errorf("embed the query: %w", err)
		}
		if len(vs) == 1 {
			vec = vs[0]
		}
	}
	refs, err := c.publishedRefs(ctx, opts.Repo, opts.Refs, model)
	if err != nil {
		return nil, err
	}
	if len(refs) == 0 {
		return nil, fmt.Errorf("no published ref at %s matches (repo %q, refs %q, model %s): publish with `git bcindex publish`", c.url, opts.Repo, opts.Refs, model)
	}
	var hits []Hit
	for fetch := max(50, 5*opts.K); ; fetch *= 4 {
		ranked, err := c.rankChunks(ctx, opts, model, vec, fetch)
		if err != nil {
			return nil, err
		}
		if hits, err = c.placeChunks(ctx, ranked, refs, opts); err != nil {
			return nil, err
		}
		// Chunks outside the filters took places: look further, within
		// what one query may return.
		if len(hits) >= opts.K || len(ranked) < fetch || fetch*4 > 2000 {
			break
		}
	}
	if len(hits) > opts.K {
		hits = hits[:opts.K]
	}
	// A cluster published before summaries existed has no collection for
	// them until the next publish.
	if !opts.NoSummaries && !slices.Contains(missing, SummaryClass) {
		if err := c.attachSummaries(ctx, hits, opts.SummaryModel); err != nil {
			return nil, err
		}
	}
	return hits, nil
}

// publishedRef is a ref's visible generation.
type publishedRef struct {
	repo, ref, commit string
	gen               int64
}

// publishedRefs returns the refs of the model matching the repo glob and
// the ref names or globs.
func (c *Client) publishedRefs(ctx context.Context, repoGlob string, refGlobs []string, model string) (map[[2]string]publishedRef, error) {
	var where *filters.WhereBuilder
	if r := singleRef(refGlobs); r != "" {
		where = eq("ref", r)
	}
	rows, err := c.get(ctx, query{class: RefClass, fields: []string{"repo", "ref", "commit", "model", "gen"}, where: where, limit: 10000})
	if err != nil {
		return nil, err
	}
	out := map[[2]string]publishedRef{}
	for _, r := range rows {
		p := publishedRef{repo: str(r, "repo"), ref: str(r, "ref"), commit: str(r, "commit"), gen: num(r, "gen")}
		if str(r, "model") != model || p.gen == 0 {
			continue
		}
		if repoGlob != "" {
			if ok, _ := doublestar.Match(repoGlob, p.repo); !ok {
				continue
			}
		}
		if len(refGlobs) > 0 && !slices.ContainsFunc(refGlobs, func(g string) bool { ok, _ := doublestar.Match(g, p.ref); return ok }) {
			continue
		}
		out[[2]string{p.repo, p.ref}] = p
	}
	return out, nil
}

// singleRef is the one ref name the globs allow, or "" for several.
func singleRef(globs []string) string {
	if len(globs) == 1 && !strings.ContainsAny(globs[0], "*?[{\\") {
		return globs[0]
	}
	return ""
}

// ranked is a chunk object in the order of the hybrid query.
type ranked struct {
	id    string
	score float64
	props map[string]any
}

// rankChunks runs the hybrid query (BM25 over the same code-aware tokens
// as local search, plus the query vector) over the model's chunks.
func (c *Client) rankChunks(ctx context.Context, opts SearchOptions, model string, vec []float32, fetch int) ([]ranked, error) {
	conds := []*filters.WhereBuilder{eq("model", model)}
	if opts.Lang != "" {
		conds = append(conds, eq("language", strings.ToLower(opts.Lang)))
	}
	if opts.Kind != "" {
		conds = append(conds, eq("kind", strings.ToLower(opts.Kind)))
	}
	q := opts.Parsed
	text := strings.Join(q.Tokens, " ")
	if text == "" {
		text = opts.Query // only stop words: let BM25 find nothing rather than fail
	}
	h := c.w.GraphQL().HybridArgumentBuilder().WithQuery(text).
		WithProperties([]string{"tokens"}).WithFusionType(graphql.RelativeScore)
	if vec != nil {
		h = h.WithVector(vec).WithAlpha(opts.Alpha)
	} else {
		h = h.WithAlpha(0)
	}
	fields := []string{"name", "kind", "language", "signature", "doc", "text", "hash"}
	rows, err := c.get(ctx, query{class: ChunkClass, fields: fields, where: and(conds...), hybrid: h, limit: fetch})
	if err != nil {
		return nil, err
	}
	out := make([]ranked, 0, len(rows))
	seen := map[string]bool{}
	// An exact name match comes first, as the local symbol arm puts it.
	if len(q.Words) == 1 {
		exact, err := c.get(ctx, query{class: ChunkClass, fields: fields, where: and(append(conds, eq("name", q.Text))...), limit: opts.K})
		if err != nil {
			return nil, err
		}
		for _, r := range exact {
			seen[str(r, "_id")] = true
			out = append(out, ranked{id: str(r, "_id"), score: 1, props: r})
		}
	}
	exact := len(out)
	for _, r := range rows {
		if id := str(r, "_id"); !seen[id] {
			seen[id] = true
			var s float64
			fmt.Sscan(fmt.Sprint(r["_score"]), &s)
			out = append(out, ranked{id: id, score: weigh(s, r, q), props: r})
		}
	}
	rest := out[exact:]
	sort.SliceStable(rest, func(i, j int) bool { return rest[i].score > rest[j].score })
	return out, nil
}

// weigh is a hit's score weighed by its kind and path as local search's
// fusion weighs it (search.Prior).
func weigh(score float64, props map[string]any, q *userq.Query) float64 {
	return score * search.Prior(str(props, "kind"), str(props, "path"), q)
}
