package cluster

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/weaviate/weaviate-go-client/v5/weaviate/filters"
	"github.com/weaviate/weaviate-go-client/v5/weaviate/graphql"
	"github.com/weaviate/weaviate/entities/models"
)

// retryFor bounds how long an operation is retried while the cluster
// recovers (a node restarting, a leader election).
var retryFor = 90 * time.Second

// transient marks an error worth retrying: the cluster may recover.
type transient struct{ error }

func (t transient) Unwrap() error { return t.error }

// transientMarks are pieces of messages Weaviate gives while a node is
// down or a shard is moving. Over gRPC, a batch the coordinator was
// forwarding to a node killed meanwhile ends with status DeadlineExceeded
// ("stream terminated by RST_STREAM"): the next attempt reaches a quorum
// of the nodes left.
var transientMarks = []string{"consistency level", "replica", "leader", "timeout", "connection", "unavailable",
	"EOF", "broken pipe", "shard", "not ready", "context deadline", "node", "DeadlineExceeded", "RST_STREAM"}

// maybeTransient wraps err as transient when its message says so.
func maybeTransient(err error) error {
	if err == nil {
		return nil
	}
	msg := strings.ToLower(err.Error())
	for _, m := range transientMarks {
		if strings.Contains(msg, strings.ToLower(m)) {
			return transient{err}
		}
	}
	return err
}

// retry runs op until it succeeds, fails for good, the context ends, or
// retryFor passes. Every operation here is idempotent (upserts by
// deterministic ID, deletes by filter), so running one twice is harmless.
func retry(ctx context.Context, op func() error) error {
	deadline := time.Now().Add(retryFor)
	wait := 200 * time.Millisecond
	for {
		err := op()
		var tr transient
		if err == nil || !errors.As(err, &tr) || ctx.Err() != nil || time.Now().After(deadline) {
			if err != nil && ctx.Err() != nil {
				return ctx.Err()
			}
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(wait):
		}
		wait = min(2*wait, 5*time.Second)
	}
}

// upsert writes objects (creating or replacing each by ID) at quorum.
func (c *Client) upsert(ctx context.Context, objs []*models.Object) error {
	if len(objs) == 0 {
		return nil
	}
	for _, o := range objs {
		validUTF8(o.Properties)
	}
	return retry(ctx, func() error {
		res, err := c.w.Batch().ObjectsBatcher().WithObjects(objs...).WithConsistencyLevel(Consistency).Do(ctx)
		if err != nil {
			return maybeTransient(c.wrap("write objects", err))
		}
		for _, r := range res {
			if r.Result != nil && r.Result.Errors != nil && len(r.Result.Errors.Error) > 0 {
				return maybeTransient(fmt.Errorf("write %s %s at %s: %s", r.Class, r.ID, c.url, r.Result.Errors.Error[0].Message))
			}
		}
		return nil
	})
}

// patch merges props into one object.
func (c *Client) patch(ctx context.Context, class, id string, props map[string]any) error {
	return retry(ctx, func() error {
		err := c.w.Data().Updater().WithMerge().WithClassName(class).WithID(id).
			WithProperties(props).WithConsistencyLevel(Consistency).Do(ctx)
		return maybeTransient(c.wrap("update "+class, err))
	})
}

// deleteWhere deletes every object of class matching where.
func (c *Client) deleteWhere(ctx context.Context, class string, where *filters.WhereBuilder) (int64, error) {
	var n int64
	err := retry(ctx, func() error {
		res, err := c.w.Batch().ObjectsBatchDeleter().WithClassName(class).WithWhere(where).
			WithConsistencyLevel(Consistency).WithOutput("minimal").Do(ctx)
		if err != nil {
			return maybeTransient(c.wrap("delete from "+class, err))
		}
		if res.Results != nil {
			n = res.Results.Successful
			if res.Results.Failed > 0 {
				return transient{fmt.Errorf("delete from %s at %s: %d objects failed", class, c.url, res.Results.Failed)}
			}
		}
		return nil
	})
	return n, err
}

// query is one GraphQL Get.
type query struct {
	class  string
	fields []string
	where  *filters.WhereBuilder
	bm25   *graphql.BM25ArgumentBuilder       // "_score" holds the BM25 score
	near   *graphql.NearVectorArgumentBuilder // "_distance" holds the distance
	sortBy string                             // ascending
	limit  int
	offset int
}

// get runs q and returns its objects as maps; "_id", "_score" and
// "_distance" hold the additional fields.
func (c *Client) get(ctx context.Context, q query) ([]map[string]any, error) {
	fields := make([]graphql.Field, 0, len(q.fields)+1)
	for _, f := range q.fields {
		fields = append(fields, graphql.Field{Name: f})
	}
	add := []graphql.Field{{Name: "id"}}
	if q.bm25 != nil {
		add = append(add, graphql.Field{Name: "score"})
	}
	if q.near != nil {
		add = append(add, graphql.Field{Name: "distance"})
	}
	fields = append(fields, graphql.Field{Name: "_additional", Fields: add})
	var out []map[string]any
	err := retry(ctx, func() error {
		// Queries read each shard from one replica (the coordinator's own
		// when it has one). Naming QUORUM here made a node that had just
		// rejoined answer nothing for minutes, so reads take the default.
		b := c.w.GraphQL().Get().WithClassName(q.class).WithFields(fields...)
		if q.where != nil {
			b = b.WithWhere(q.where)
		}
		if q.bm25 != nil {
			b = b.WithBM25(q.bm25)
		}
		if q.near != nil {
			b = b.WithNearVector(q.near)
		}
		if q.sortBy != "" {
			b = b.WithSort(graphql.Sort{Path: []string{q.sortBy}, Order: graphql.Asc})
		}
		if q.limit > 0 {
			b = b.WithLimit(q.limit)
		}
		if q.offset > 0 {
			b = b.WithOffset(q.offset)
		}
		resp, err := b.Do(ctx)
		if err != nil {
			return maybeTransient(c.wrap("query "+q.class, err))
		}
		if len(resp.Errors) > 0 {
			msgs := make([]string, len(resp.Errors))
			for i, e := range resp.Errors {
				msgs[i] = e.Message
			}
			return maybeTransient(fmt.Errorf("query %s at %s: %s", q.class, c.url, strings.Join(msgs, "; ")))
		}
		get, _ := resp.Data["Get"].(map[string]any)
		rows, _ := get[q.class].([]any)
		out = out[:0]
		for _, r := range rows {
			m, ok := r.(map[string]any)
			if !ok {
				continue
			}
			if a, ok := m["_additional"].(map[string]any); ok {
				m["_id"] = a["id"]
				m["_score"] = a["score"]
				m["_distance"] = a["distance"]
			}
			out = append(out, m)
		}
		return nil
	})
	return out, err
}

func eq(path, value string) *filters.WhereBuilder {
	return filters.Where().WithPath([]string{path}).WithOperator(filters.Equal).WithValueText(value)
}

func cmpInt(path string, op filters.WhereOperator, v int64) *filters.WhereBuilder {
	return filters.Where().WithPath([]string{path}).WithOperator(op).WithValueInt(v)
}

func and(ws ...*filters.WhereBuilder) *filters.WhereBuilder {
	return filters.Where().WithOperator(filters.And).WithOperands(ws)
}

func str(m map[string]any, k string) string { s, _ := m[k].(string); return s }

func num(m map[string]any, k string) int64 {
	switch v := m[k].(type) {
	case float64:
		return int64(v)
	case int64:
		return v
	case string: // GraphQL may render large ints as strings
		var n int64
		fmt.Sscan(v, &n)
		return n
	}
	return 0
}

func strs(m map[string]any, k string) []string {
	raw, _ := m[k].([]any)
	out := make([]string, 0, len(raw))
	for _, x := range raw {
		s, _ := x.(string)
		out = append(out, s)
	}
	return out
}

func nums(m map[string]any, k string) []int {
	raw, _ := m[k].([]any)
	out := make([]int, 0, len(raw))
	for _, x := range raw {
		f, _ := x.(float64)
		out = append(out, int(f))
	}
	return out
}

// Count returns the number of objects in a collection.
func (c *Client) Count(ctx context.Context, class string) (int64, error) {
	var n int64
	err := retry(ctx, func() error {
		resp, err := c.w.GraphQL().Aggregate().WithClassName(class).
			WithFields(graphql.Field{Name: "meta", Fields: []graphql.Field{{Name: "count"}}}).Do(ctx)
		if err != nil {
			return maybeTransient(c.wrap("count "+class, err))
		}
		if len(resp.Errors) > 0 {
			return maybeTransient(fmt.Errorf("count %s at %s: %s", class, c.url, resp.Errors[0].Message))
		}
		agg, _ := resp.Data["Aggregate"].(map[string]any)
		rows, _ := agg[class].([]any)
		if len(rows) == 1 {
			row, _ := rows[0].(map[string]any)
			meta, _ := row["meta"].(map[string]any)
			n = num(meta, "count")
		}
		return nil
	})
	return n, err
}
