package mcp

import (
	"context"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// A client that pipes its requests and closes stdin at once
// (printf '...' | git bcindex mcp) must still get every answer. The SDK
// ends the session as soon as its connection reports the end of input,
// dropping the answers still being worked out. So the connection
// (stdio.go) notes each request it reads and each answer it writes, and
// holds the end of input back until none is pending.

// pending is the set of requests read and not yet answered.
type pending struct {
	mu   sync.Mutex
	ids  map[jsonrpc.ID]int
	idle chan struct{} // closed while ids is empty
}

func newPending() *pending {
	p := &pending{ids: map[jsonrpc.ID]int{}, idle: make(chan struct{})}
	close(p.idle)
	return p
}

func (p *pending) add(id jsonrpc.ID) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.ids) == 0 {
		p.idle = make(chan struct{})
	}
	p.ids[id]++
}

func (p *pending) done(id jsonrpc.ID) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ids[id] == 0 {
		return // not a request we read (or answered already)
	}
	if p.ids[id]--; p.ids[id] == 0 {
		delete(p.ids, id)
	}
	if len(p.ids) == 0 {
		close(p.idle)
	}
}

// wait returns once no request is pending, ctx ends or closed is closed
// (the connection is gone: nothing more can be answered).
func (p *pending) wait(ctx context.Context, closed <-chan struct{}) {
	p.mu.Lock()
	idle := p.idle
	p.mu.Unlock()
	select {
	case <-idle:
	case <-ctx.Done():
	case <-closed:
	}
}
