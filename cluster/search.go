package cluster

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/weaviate/weaviate-go-client/v5/weaviate/filters"

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
	// NoSummaries leaves the generated summaries published with the
	// chunks out of the hits; SummaryModel is the chat model whose summary
	// a hit shows when the cluster has several ("" = any).
	NoSummaries  bool
	SummaryModel string
}

// Hit is a search hit with the repository it is in.
type Hit struct {
	search.Hit
	Repo string `json:"repo"`
}

// Search ranks the chunks of every published repository matching opts as
// local search ranks a hybrid query, and returns hits in the local hit
// format. The cluster answers each arm's query (BM25 over the chunks'
// code-aware tokens, the nearest vectors, the chunks named as the query
// when it is one word); the chunks are placed in the files the filters
// keep, and search.FuseLists, the ranking local search runs, orders them.
func Search(ctx context.Context, c *Client, opts SearchOptions) ([]Hit, error) {
	q, err := userq.Of(opts.Query, opts.Parsed, userq.Parse)
	if err != nil {
		return nil, err
	}
	opts.Query, opts.Parsed = q.Raw, q
	if opts.K <= 0 {
		opts.K = 10
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
		cands, lists, full, err := c.candidates(ctx, opts, model, vec, fetch)
		if err != nil {
			return nil, err
		}
		placed, err := c.placeChunks(ctx, cands, refs, opts)
		if err != nil {
			return nil, err
		}
		hits = rankPlaced(q, cands, lists, placed)
		// Chunks outside the filters took places: look further, within
		// what one query may return.
		if len(hits) >= opts.K || !full || fetch*4 > 2000 {
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

// ranked is a chunk object one of the arms' queries returned, with the
// score the ranking gave it.
type ranked struct {
	id    string
	score float64
	props map[string]any
	// BM25 candidates: how much of the most the query could score its
	// tokens score, and the share of the query's terms they hold (textTop).
	coverage, terms float64
}

// candidates asks the cluster for each arm's candidates among the model's
// chunks (up to fetch each): BM25 over the same code-aware tokens as local
// search, the nearest vectors (with vec), and, for a query of one word,
// the chunks of that name. It returns them once each, the arms' lists
// indexing them, and whether an arm's list was full (more may lie
// deeper).
func (c *Client) candidates(ctx context.Context, opts SearchOptions, model string, vec []float32, fetch int) ([]ranked, []search.ArmList, bool, error) {
	conds := []*filters.WhereBuilder{eq("model", model)}
	if opts.Lang != "" {
		conds = append(conds, eq("language", strings.ToLower(opts.Lang)))
	}
	if opts.Kind != "" {
		conds = append(conds, eq("kind", strings.ToLower(opts.Kind)))
	}
	q := opts.Parsed
	fields := []string{"name", "kind", "language", "signature", "doc", "text", "hash"}
	var out []ranked
	index := map[string]int{}
	add := func(r map[string]any) int {
		id := str(r, "_id")
		if i, ok := index[id]; ok {
			return i
		}
		index[id] = len(out)
		out = append(out, ranked{id: id, props: r})
		return len(out) - 1
	}
	full := false
	text := search.ArmList{Mode: search.ModeText}
	if len(q.Terms) > 0 {
		bm25 := c.w.GraphQL().Bm25ArgBuilder().WithQuery(strings.Join(q.Terms, " ")).WithProperties("tokens")
		rows, err := c.get(ctx, query{class: ChunkClass, fields: append(fields, "tokens"), where: and(conds...), bm25: bm25, limit: fetch})
		if err != nil {
			return nil, nil, false, err
		}
		full = full || len(rows) >= fetch
		for _, r := range rows {
			i := add(r)
			out[i].coverage, out[i].terms = termCoverage(q.Terms, str(r, "tokens"))
			text.Keys, text.Scores = append(text.Keys, i), append(text.Scores, number(r["_score"]))
		}
	}
	lists := []search.ArmList{text}
	if vec != nil {
		near := c.w.GraphQL().NearVectorArgBuilder().WithVector(vec)
		rows, err := c.get(ctx, query{class: ChunkClass, fields: fields, where: and(conds...), near: near, limit: fetch})
		if err != nil {
			return nil, nil, false, err
		}
		full = full || len(rows) >= fetch
		l := search.ArmList{Mode: search.ModeVector}
		for _, r := range rows {
			// The chunk collection's distance is "dot": the negated dot
			// product of unit vectors, the cosine.
			l.Keys, l.Scores = append(l.Keys, add(r)), append(l.Scores, -number(r["_distance"]))
		}
		lists = append(lists, l)
	}
	if len(q.Words) == 1 {
		rows, err := c.get(ctx, query{class: ChunkClass, fields: fields, where: and(append(conds, eq("name", q.Text))...), limit: opts.K})
		if err != nil {
			return nil, nil, false, err
		}
		for _, r := range rows {
			add(r)
		}
	}
	return out, lists, full, nil
}

// rankPlaced orders the placed candidates with search.FuseLists, each
// arm's list cut to them first, as local search ranks only the rows its
// filters leave.
func rankPlaced(q *userq.Query, cands []ranked, lists []search.ArmList, placed map[int]Hit) []Hit {
	kept := make([]search.ArmList, len(lists))
	for i, l := range lists {
		kept[i].Mode = l.Mode
		for j, k := range l.Keys {
			if _, ok := placed[k]; !ok {
				continue
			}
			if len(kept[i].Keys) == 0 {
				kept[i].Coverage, kept[i].Terms = cands[k].coverage, cands[k].terms
			}
			kept[i].Keys, kept[i].Scores = append(kept[i].Keys, k), append(kept[i].Scores, l.Scores[j])
		}
	}
	info := make([]search.Candidate, len(cands))
	for k, h := range placed {
		info[k] = search.Candidate{Name: h.Name, Kind: h.Kind, Path: h.Path, Language: h.Language}
	}
	var hits []Hit
	for _, s := range search.FuseLists(q, kept, info) {
		h := placed[s.Key]
		h.Score = search.RoundScore(s.Score)
		hits = append(hits, h)
	}
	return hits
}

// termCoverage describes a chunk's tokens (space-separated) as local
// search's text arm describes its top row: coverage, its BM25 over the
// most the query could score (every term at saturating frequency), each
// term weighing alike (the cluster has no document frequencies to weigh
// them by); terms, the share of the query's terms it holds.
func termCoverage(terms []string, tokens string) (coverage, share float64) {
	if len(terms) == 0 {
		return 0, 0
	}
	tf := map[string]float64{}
	for _, t := range strings.Fields(tokens) {
		tf[t]++
	}
	const k1 = 1.2 // local search's BM25 k1
	for _, t := range terms {
		if n := tf[t]; n > 0 {
			coverage += n / (n + k1)
			share++
		}
	}
	return coverage / float64(len(terms)), share / float64(len(terms))
}

// number reads a number Weaviate returned as a number or a string.
func number(v any) float64 {
	var x float64
	fmt.Sscan(fmt.Sprint(v), &x)
	return x
}
