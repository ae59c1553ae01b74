package cluster

import (
	"context"
	"strings"
	"unicode/utf8"

	"github.com/go-openapi/strfmt"
	"github.com/weaviate/weaviate-go-client/v5/weaviate/filters"
	"github.com/weaviate/weaviate/entities/models"
	"golang.org/x/sync/errgroup"
)

// filesPerRound bounds how many files' chunks are held at once.
const filesPerRound = 500

func uuidOf(s string) strfmt.UUID { return strfmt.UUID(s) }

// publishFiles writes the chunk objects the cluster lacks for files, then
// the files' objects (generation next), a round of files at a time.
func publishFiles(ctx context.Context, c *Client, src Source, opts PublishOptions, model string, files []File, gen int64, sum *RefSummary) error {
	for start := 0; start < len(files); start += filesPerRound {
		round := files[start:min(start+filesPerRound, len(files))]
		var fileObjs []*models.Object
		chunks := map[string]Chunk{} // chunk ID → chunk
		var order []string
		for _, f := range round {
			cs, err := src.Chunks(ctx, f.Blob)
			if err != nil {
				return err
			}
			ids := make([]string, len(cs))
			spans := make([]int64, 0, 4*len(cs))
			crumbs := make([]string, len(cs))
			for i, ch := range cs {
				ids[i] = "-"
				if ch.Hash != "" {
					ids[i] = ChunkID(model, ch.Hash)
					if _, ok := chunks[ids[i]]; !ok {
						chunks[ids[i]] = ch
						order = append(order, ids[i])
					}
				}
				spans = append(spans, int64(ch.StartLine), int64(ch.EndLine), int64(ch.StartByte), int64(ch.EndByte))
				crumbs[i] = ch.Crumb
			}
			id := fileID(opts.Repo, sum.Ref, model, f.Path, f.Blob)
			fileObjs = append(fileObjs, &models.Object{Class: FileClass, ID: uuidOf(id), Properties: map[string]any{
				"repo": opts.Repo, "ref": sum.Ref, "path": f.Path, "blob": f.Blob, "chunks": ids, "spans": spans,
				"crumbs": crumbs, "seq": fileSeq(id), "from": gen, "until": live,
			}})
		}
		missing, err := c.missing(ctx, ChunkClass, order)
		if err != nil {
			return err
		}
		sum.ChunksNew += len(missing)
		sum.ChunksKnown += len(order) - len(missing)
		objs := make([]*models.Object, 0, opts.Batch)
		for _, id := range missing {
			objs = append(objs, chunkObject(model, id, chunks[id]))
			if len(objs) == opts.Batch {
				if err := c.upsert(ctx, objs); err != nil {
					return err
				}
				objs = objs[:0]
			}
		}
		if err := c.upsert(ctx, objs); err != nil {
			return err
		}
		for b := 0; b < len(fileObjs); b += opts.Batch {
			if err := c.upsert(ctx, fileObjs[b:min(b+opts.Batch, len(fileObjs))]); err != nil {
				return err
			}
		}
		if opts.Progress != nil {
			opts.Progress("publishing files", start+len(round), len(files))
		}
	}
	return nil
}

func chunkObject(model, id string, ch Chunk) *models.Object {
	return &models.Object{Class: ChunkClass, ID: uuidOf(id), Vector: ch.Vector, Properties: map[string]any{
		"model": model, "hash": ch.Hash, "tokens": strings.Join(ch.Tokens, " "), "text": ch.Text,
		"name": ch.Name, "kind": ch.Kind, "language": ch.Language, "signature": ch.Signature, "doc": ch.Doc,
	}}
}

// missing returns the IDs (in order) that no object of class has.
func (c *Client) missing(ctx context.Context, class string, ids []string) ([]string, error) {
	const per = 500
	var out []string
	for s := 0; s < len(ids); s += per {
		part := ids[s:min(s+per, len(ids))]
		rows, err := c.get(ctx, query{class: class, where: idIn(part), limit: len(part)})
		if err != nil {
			return nil, err
		}
		have := make(map[string]bool, len(rows))
		for _, r := range rows {
			have[str(r, "_id")] = true
		}
		for _, id := range part {
			if !have[id] {
				out = append(out, id)
			}
		}
	}
	return out, nil
}

func idIn(ids []string) *filters.WhereBuilder {
	return filters.Where().WithPath([]string{"id"}).WithOperator(filters.ContainsAny).WithValueText(ids...)
}

// applyPlan revives, retires and drops file objects (the puts are done).
func applyPlan(ctx context.Context, c *Client, opts PublishOptions, p filePlan, next int64) error {
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(8)
	total, done := len(p.revive)+len(p.retire), 0
	for _, set := range []struct {
		files []haveFile
		until int64
	}{{p.revive, live}, {p.retire, next}} {
		for _, h := range set.files {
			g.Go(func() error {
				return c.patch(gctx, FileClass, h.id, map[string]any{"until": set.until})
			})
			done++
			if opts.Progress != nil && done%100 == 0 {
				opts.Progress("retiring files", done, total)
			}
		}
	}
	if err := g.Wait(); err != nil {
		return err
	}
	for s := 0; s < len(p.drop); s += 500 {
		part := p.drop[s:min(s+500, len(p.drop))]
		ids := make([]string, len(part))
		for i, h := range part {
			ids[i] = h.id
		}
		if _, err := c.deleteWhere(ctx, FileClass, idIn(ids)); err != nil {
			return err
		}
	}
	return nil
}

// validUTF8 replaces each byte of the text properties that is not UTF-8
// with U+FFFD, as JSON encoding does: a source file may hold any bytes,
// and gRPC refuses strings that are not UTF-8.
func validUTF8(props models.PropertySchema) {
	m, _ := props.(map[string]any)
	for k, v := range m {
		switch v := v.(type) {
		case string:
			m[k] = validString(v)
		case []string:
			for i, s := range v {
				v[i] = validString(s)
			}
		}
	}
}

func validString(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			b.WriteRune(utf8.RuneError)
		} else {
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}
