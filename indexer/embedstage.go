package indexer

import (
	"context"
	"fmt"
	"math"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/vector"
)

// toEmbed is what a processed blob still needs from the embedder: the
// chunks without stored vectors, and the inputs their texts became
// (a long chunk becomes several windows; owner[k] is the position in
// chunks that input k belongs to).
type toEmbed struct {
	path   string
	chunks []int
	inputs []string
	owner  []int
}

// bytes is the text the blob adds to a request.
func (t *toEmbed) bytes() int {
	n := 0
	for _, in := range t.inputs {
		n += len(in)
	}
	return n
}

// How the embedding stage waits for more blobs before a call that is not
// full: a stream that pauses (a large blob being parsed, the end of the
// work) sends what it has after embedIdle; a slow steady one after
// embedMaxWait. Variables so that a test can take time out of the count
// of calls.
var (
	embedIdle    = 100 * time.Millisecond
	embedMaxWait = 2 * time.Second
)

// embedCallsInFlight is how many calls run at once when the embedder
// sets no limit.
const embedCallsInFlight = 4

// embedLimits says whether blobs leave their embedding to the stage, and
// the limits of its calls: those of an embedder with request limits (a
// remote provider), or Options.EmbedBatch inputs.
func (ix *Indexer) embedLimits() (embed.Limits, bool) {
	emb := ix.opts.Embedder
	if emb == nil || ix.opts.EmbedBatch == 1 {
		return embed.Limits{}, false
	}
	var lim embed.Limits
	if l, ok := emb.(embed.Limited); ok {
		lim = l.Limits()
	}
	if b := ix.opts.EmbedBatch; b > 1 && (lim.Inputs <= 0 || b < lim.Inputs) {
		lim.Inputs = b
	}
	if lim.Inputs <= 0 {
		return embed.Limits{}, false // an in-process model: every worker embeds its own blob
	}
	if lim.Bytes <= 0 {
		lim.Bytes = math.MaxInt
	}
	if lim.InFlight <= 0 {
		lim.InFlight = embedCallsInFlight
	}
	return lim, true
}

// embedStage takes processed blobs from in and hands them to out with
// their vectors: the chunks of as many blobs as fit the limits go in one
// call, and at most lim.InFlight calls run at once (a full set of calls
// holds the workers back). It closes out when in is closed and every call
// has finished, or on the first error.
func embedStage(ctx context.Context, emb embed.Embedder, lim embed.Limits, in <-chan *blobResult, out chan<- *blobResult) error {
	defer close(out)
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(lim.InFlight)
	var batch []*blobResult
	inputs, size := 0, 0
	var since time.Time // when the oldest blob of the batch arrived
	flush := func() {
		b := batch
		batch, inputs, size = nil, 0, 0
		g.Go(func() error {
			if err := embedBlobs(gctx, emb, b); err != nil {
				return err
			}
			for _, r := range b {
				select {
				case out <- r:
				case <-gctx.Done():
					return gctx.Err()
				}
			}
			return nil
		})
	}
	idle := time.NewTimer(time.Hour)
	defer idle.Stop()
loop:
	for {
		select {
		case r, ok := <-in:
			if !ok {
				break loop
			}
			if r.toEmbed == nil {
				select {
				case out <- r:
				case <-gctx.Done():
					break loop
				}
				continue
			}
			n, sz := len(r.toEmbed.inputs), r.toEmbed.bytes()
			if len(batch) > 0 && (inputs+n > lim.Inputs || size+sz > lim.Bytes) {
				flush()
			}
			if len(batch) == 0 {
				since = time.Now()
			}
			batch = append(batch, r)
			inputs, size = inputs+n, size+sz
			if inputs >= lim.Inputs || size >= lim.Bytes || time.Since(since) >= embedMaxWait {
				flush()
			}
			idle.Reset(embedIdle)
		case <-idle.C:
			if len(batch) > 0 {
				flush()
			}
		case <-gctx.Done():
			break loop
		}
	}
	if len(batch) > 0 && gctx.Err() == nil {
		flush()
	}
	return g.Wait()
}

// embedBlobs computes the vectors the blobs still need in one call.
func embedBlobs(ctx context.Context, emb embed.Embedder, rs []*blobResult) error {
	var inputs []string
	var owner []int
	base := make([]int, len(rs)) // first pooled vector of each blob
	n := 0
	for i, r := range rs {
		t := r.toEmbed
		base[i] = n
		inputs = append(inputs, t.inputs...)
		for _, o := range t.owner {
			owner = append(owner, n+o)
		}
		n += len(t.chunks)
	}
	vecs, err := embedPooled(ctx, emb, inputs, owner, n)
	if err != nil {
		first := rs[0]
		if len(rs) == 1 {
			return fmt.Errorf("embed %s (blob %s): %w", first.toEmbed.path, first.sha, err)
		}
		return fmt.Errorf("embed %d chunks of %d files (%s and others): %w", n, len(rs), first.toEmbed.path, err)
	}
	for i, r := range rs {
		t := r.toEmbed
		for k, c := range t.chunks {
			r.vectors[c], r.scales[c] = vector.Quantize(vecs[base[i]+k])
		}
		r.embedded = len(t.chunks)
		r.toEmbed = nil
	}
	return nil
}
