package gitindex

import (
	"container/list"
	"sync"
)

// baseCache keeps the contents of recent delta bases, each with the type
// at the end of its chain, least recently used first out, up to a number
// of bytes: the objects of a tree diff or of a file's versions are deltas
// against the same few bases.
type baseCache struct {
	mu    sync.Mutex
	limit int
	bytes int
	order *list.List // of *cached, most recent at the front
	at    map[baseKey]*list.Element
}

type baseKey struct {
	p   *pack
	off int64
}

type cached struct {
	key baseKey
	b   []byte
	typ int
}

func newBaseCache(limit int) *baseCache {
	return &baseCache{limit: limit, order: list.New(), at: map[baseKey]*list.Element{}}
}

func (c *baseCache) get(p *pack, off int64) (b []byte, typ int, ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.at[baseKey{p, off}]
	if !ok {
		return nil, 0, false
	}
	c.order.MoveToFront(el)
	v := el.Value.(*cached)
	return v.b, v.typ, true
}

func (c *baseCache) put(p *pack, off int64, b []byte, typ int) {
	if len(b) > c.limit/4 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	k := baseKey{p, off}
	if _, ok := c.at[k]; ok {
		return
	}
	c.at[k] = c.order.PushFront(&cached{k, b, typ})
	for c.bytes += len(b); c.bytes > c.limit; {
		last := c.order.Back()
		v := last.Value.(*cached)
		c.order.Remove(last)
		delete(c.at, v.key)
		c.bytes -= len(v.b)
	}
}
