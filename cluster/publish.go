package cluster

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sort"

	"github.com/weaviate/weaviate-go-client/v5/weaviate/fault"
	"github.com/weaviate/weaviate-go-client/v5/weaviate/filters"
	"github.com/weaviate/weaviate/entities/models"
)

// Progress reports publishing: stage names the step, done of total items.
type Progress func(stage string, done, total int)

// PublishOptions say what to publish.
type PublishOptions struct {
	Repo     string   // the repository's name in the cluster
	Refs     []string // ref names to publish, as given (e.g. "main", "v1.2")
	Revs     []string // the revision each ref name resolves from; "" = the name itself
	Progress Progress // nil: silent
	// Batch is the number of objects per write; 0: 200.
	Batch int
}

// RefSummary reports the publication of one ref.
type RefSummary struct {
	Repo         string `json:"repo"`
	Ref          string `json:"ref"`
	Commit       string `json:"commit"`
	Previous     string `json:"previous,omitempty"`
	Generation   int64  `json:"generation"`
	Files        int    `json:"files"`
	FilesAdded   int    `json:"files_added"`
	FilesRemoved int    `json:"files_removed"`
	ChunksNew    int    `json:"chunks_sent"`    // chunk objects the cluster lacked
	ChunksKnown  int    `json:"chunks_present"` // chunk objects it already had
	Unchanged    bool   `json:"unchanged"`
	// Repaired counts file objects a killed run left wrong (written, marked
	// or missing) that a run of the published commit put right.
	Repaired int `json:"repaired,omitempty"`
}

// refState is a ref's published state.
type refState struct {
	Commit, Model string
	Gen           int64
}

// Publish sends each ref's current index to the cluster: chunk objects the
// cluster lacks, then the files that changed as a new generation, then the
// switch of the ref to that generation, then the removal of what no
// generation shows any more. Killed at any point, a rerun converges.
func Publish(ctx context.Context, c *Client, src Source, opts PublishOptions) ([]RefSummary, error) {
	if opts.Repo == "" {
		return nil, fmt.Errorf("publish: no repository name")
	}
	if opts.Batch <= 0 {
		opts.Batch = 200
	}
	if err := c.ensureSchema(ctx); err != nil {
		return nil, err
	}
	var out []RefSummary
	for i, ref := range opts.Refs {
		rev := ref
		if i < len(opts.Revs) && opts.Revs[i] != "" {
			rev = opts.Revs[i]
		}
		sum, err := publishRef(ctx, c, src, opts, ref, rev)
		if err != nil {
			return out, fmt.Errorf("publish %s of %s: %w", ref, opts.Repo, err)
		}
		out = append(out, *sum)
	}
	return out, nil
}

func publishRef(ctx context.Context, c *Client, src Source, opts PublishOptions, ref, rev string) (*RefSummary, error) {
	commit, err := src.Prepare(ctx, rev)
	if err != nil {
		return nil, err
	}
	sum := &RefSummary{Repo: opts.Repo, Ref: ref, Commit: commit}
	state, err := c.readRef(ctx, opts.Repo, ref)
	if err != nil {
		return nil, err
	}
	sum.Previous = state.Commit
	model := src.Model()
	// Published already: the ref stays at its generation and the run only
	// repairs it. A run killed after the switch left the cleanup undone; one
	// killed while publishing another commit left file objects of a
	// generation that never came and files marked gone. Planning against the
	// published generation itself (next = gen) drops, revives and rewrites
	// exactly those, so the ref ends with the commit's file objects only.
	unchanged := state.Commit == commit && state.Model == model
	next := state.Gen + 1
	if unchanged {
		next = state.Gen
	}
	sum.Unchanged, sum.Generation = unchanged, next
	files, err := src.Files(ctx, commit)
	if err != nil {
		return nil, err
	}
	sum.Files = len(files)
	have, err := c.refFiles(ctx, opts.Repo, ref, opts.Progress)
	if err != nil {
		return nil, err
	}
	plan := planFiles(opts.Repo, ref, files, have, model, state.Gen, next)
	if unchanged && len(plan.put) > 0 {
		// A repair: the files seem missing, but the replica the query
		// read may be one that was down while they were written.
		if plan.put, err = c.stillMissing(ctx, opts.Repo, ref, model, plan.put, state.Gen); err != nil {
			return nil, err
		}
	}
	sum.FilesAdded, sum.FilesRemoved = len(plan.put), len(plan.retire)
	if unchanged {
		sum.Repaired = len(plan.put) + len(plan.revive) + len(plan.retire) + len(plan.drop)
	}

	// Chunks first: a file object is written only once every chunk it
	// names is in the cluster.
	if err := publishFiles(ctx, c, src, opts, model, plan.put, next, sum); err != nil {
		return nil, err
	}
	if err := applyPlan(ctx, c, opts, plan, next); err != nil {
		return nil, err
	}
	if !unchanged {
		// The switch: one object, so readers see the old generation or the new.
		if err := c.writeRef(ctx, opts.Repo, ref, refState{Commit: commit, Model: model, Gen: next}); err != nil {
			return nil, err
		}
	}
	return sum, c.cleanup(ctx, opts.Repo, ref, next)
}

// stillMissing returns the files of files whose objects, read by ID at
// quorum, are not visible at generation gen.
func (c *Client) stillMissing(ctx context.Context, repo, ref, model string, files []File, gen int64) ([]File, error) {
	var out []File
	for _, f := range files {
		props, err := c.getAtQuorum(ctx, FileClass, fileID(repo, ref, model, f.Path, f.Blob))
		if err != nil {
			return nil, err
		}
		if props == nil || num(props, "from") > gen || num(props, "until") <= gen {
			out = append(out, f)
		}
	}
	return out, nil
}

// getAtQuorum reads the properties of one object by ID at quorum; nil when
// there is none.
func (c *Client) getAtQuorum(ctx context.Context, class, id string) (map[string]any, error) {
	var props map[string]any
	err := retry(ctx, func() error {
		objs, err := c.w.Data().ObjectsGetter().WithClassName(class).WithID(id).
			WithConsistencyLevel(Consistency).Do(ctx)
		var we *fault.WeaviateClientError
		if errors.As(err, &we) && we.StatusCode == http.StatusNotFound {
			props = nil
			return nil
		}
		if err != nil {
			return maybeTransient(c.wrap("read "+class+" "+id, err))
		}
		props = nil
		if len(objs) == 1 {
			props, _ = objs[0].Properties.(map[string]any)
		}
		return nil
	})
	return props, err
}

// readRef reads a ref's published state by its ID at quorum, as it is
// written: of two replicas, at least one has the last switch, and the
// newer wins. A query reads one replica, which may be one that was down
// while publishes switched the ref; planning against its stale generation
// made a publish after a node's restart send again files already
// published and reuse a generation number.
func (c *Client) readRef(ctx context.Context, repo, ref string) (refState, error) {
	props, err := c.getAtQuorum(ctx, RefClass, refID(repo, ref))
	if err != nil || props == nil {
		return refState{}, err // nil: not published yet
	}
	return refState{Commit: str(props, "commit"), Model: str(props, "model"), Gen: num(props, "gen")}, nil
}

func (c *Client) writeRef(ctx context.Context, repo, ref string, s refState) error {
	return c.upsert(ctx, []*models.Object{{Class: RefClass, ID: uuidOf(refID(repo, ref)),
		Properties: map[string]any{"repo": repo, "ref": ref, "commit": s.Commit, "model": s.Model, "gen": s.Gen}}})
}

// cleanup deletes the files no generation from gen on shows.
func (c *Client) cleanup(ctx context.Context, repo, ref string, gen int64) error {
	_, err := c.deleteWhere(ctx, FileClass, and(eq("repo", repo), eq("ref", ref), cmpInt("until", filters.LessThanEqual, gen)))
	return err
}

// haveFile is a file object of a ref as the cluster holds it.
type haveFile struct {
	id          string
	path, blob  string
	from, until int64
}

// refFiles pages through every file object of a ref, by seq.
func (c *Client) refFiles(ctx context.Context, repo, ref string, progress Progress) ([]haveFile, error) {
	var out []haveFile
	last := -1.0
	const page = 1000
	for {
		rows, err := c.get(ctx, query{class: FileClass, fields: []string{"path", "blob", "from", "until", "seq"},
			where: and(eq("repo", repo), eq("ref", ref),
				filters.Where().WithPath([]string{"seq"}).WithOperator(filters.GreaterThan).WithValueNumber(last)),
			sortBy: "seq", limit: page})
		if err != nil {
			return nil, err
		}
		for _, r := range rows {
			out = append(out, haveFile{id: str(r, "_id"), path: str(r, "path"), blob: str(r, "blob"), from: num(r, "from"), until: num(r, "until")})
			if s, ok := r["seq"].(float64); ok && s > last {
				last = s
			}
		}
		if progress != nil {
			progress("reading published files", len(out), 0)
		}
		if len(rows) < page {
			return out, nil
		}
	}
}

// filePlan is what turns a ref's file objects into generation next.
type filePlan struct {
	put    []File     // files to write with from = next
	revive []haveFile // live at the published generation, kept, but marked retiring by a killed run
	retire []haveFile // live at the published generation, gone in the new commit
	drop   []haveFile // visible at no generation up to next: leftovers
}

// planFiles compares the ref's file objects with the new commit's files.
// It depends only on what the cluster holds, so a rerun after a kill plans
// the rest of the same work.
func planFiles(repo, ref string, files []File, have []haveFile, model string, cur, next int64) filePlan {
	var p filePlan
	byID := make(map[string]haveFile, len(have))
	for _, h := range have {
		byID[h.id] = h
	}
	want := make(map[string]bool, len(files))
	for _, f := range files {
		id := fileID(repo, ref, model, f.Path, f.Blob)
		if want[id] {
			continue
		}
		want[id] = true
		h, ok := byID[id]
		switch {
		case ok && h.from <= cur && h.until > cur:
			if h.until != live {
				p.revive = append(p.revive, h)
			}
		case ok && h.from == next && h.until == live:
			// written by a killed run of this same publication
		default:
			p.put = append(p.put, f)
		}
	}
	for _, h := range have {
		if want[h.id] {
			continue
		}
		if h.from <= cur && h.until > cur {
			if h.until != next {
				p.retire = append(p.retire, h)
			}
		} else {
			p.drop = append(p.drop, h)
		}
	}
	sort.Slice(p.put, func(i, j int) bool { return p.put[i].Path < p.put[j].Path })
	return p
}
