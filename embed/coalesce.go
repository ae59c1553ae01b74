package embed

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// Coalescer merges the Embed calls that goroutines make at the same time
// into fewer calls of the embedder it wraps: an indexer embeds blob by blob,
// a few chunks each, and a remote provider would otherwise see one request
// per blob. A call waits at most the window for others to join it; merged
// calls hold at most maxInputs inputs, and at most inFlight of them run at
// once. Close stops it; calls made after Close go to the embedder directly.
type Coalescer struct {
	Embedder
	maxInputs int
	window    time.Duration
	reqs      chan *coalesced
	slots     chan struct{}
	stop      chan struct{}
	done      chan struct{}
	closeOnce sync.Once
}

type coalesced struct {
	ctx    context.Context
	inputs []string
	role   Role
	out    [][]float32
	err    error
	ready  chan struct{}
}

// NewCoalescer wraps e. maxInputs and inFlight are at least 1.
func NewCoalescer(e Embedder, maxInputs, inFlight int, window time.Duration) *Coalescer {
	c := &Coalescer{
		Embedder:  e,
		maxInputs: max(1, maxInputs),
		window:    window,
		reqs:      make(chan *coalesced),
		slots:     make(chan struct{}, max(1, inFlight)),
		stop:      make(chan struct{}),
		done:      make(chan struct{}),
	}
	go c.loop()
	return c
}

// Embed embeds inputs as part of a merged call.
func (c *Coalescer) Embed(ctx context.Context, inputs []string, role Role) ([][]float32, error) {
	if len(inputs) == 0 {
		return nil, nil
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	r := &coalesced{ctx: ctx, inputs: inputs, role: role, ready: make(chan struct{})}
	select {
	case c.reqs <- r:
	case <-c.done:
		return c.Embedder.Embed(ctx, inputs, role)
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	select {
	case <-r.ready:
		return r.out, r.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// Close stops merging and waits for the merged calls under way.
func (c *Coalescer) Close() {
	c.closeOnce.Do(func() { close(c.stop) })
	<-c.done
}

func (c *Coalescer) loop() {
	var wg sync.WaitGroup
	defer func() {
		wg.Wait()
		close(c.done)
	}()
	var next *coalesced // a call that did not fit the previous batch
	for {
		first := next
		next = nil
		if first == nil {
			select {
			case first = <-c.reqs:
			case <-c.stop:
				return
			}
		}
		batch, n := []*coalesced{first}, len(first.inputs)
		timer := time.NewTimer(c.window)
	gather:
		for n < c.maxInputs {
			select {
			case r := <-c.reqs:
				if r.role != first.role || n+len(r.inputs) > c.maxInputs {
					next = r
					break gather
				}
				batch = append(batch, r)
				n += len(r.inputs)
			case <-timer.C:
				break gather
			case <-c.stop:
				break gather
			}
		}
		timer.Stop()
		c.slots <- struct{}{}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-c.slots }()
			c.run(batch, n)
		}()
	}
}

// run makes one call for the batch and hands each caller its vectors.
func (c *Coalescer) run(batch []*coalesced, n int) {
	inputs := make([]string, 0, n)
	for _, r := range batch {
		inputs = append(inputs, r.inputs...)
	}
	// The first caller's context bounds the call: the callers of one
	// indexing run share theirs.
	vecs, err := c.Embedder.Embed(batch[0].ctx, inputs, batch[0].role)
	if err == nil && len(vecs) != len(inputs) {
		err = fmt.Errorf("embedder %s returned %d vectors for %d inputs", c.ID(), len(vecs), len(inputs))
	}
	at := 0
	for _, r := range batch {
		if err != nil {
			r.err = err
		} else {
			r.out = vecs[at : at+len(r.inputs) : at+len(r.inputs)]
		}
		at += len(r.inputs)
		close(r.ready)
	}
}
