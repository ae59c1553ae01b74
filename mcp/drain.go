package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// A client that pipes its requests and closes stdin at once
// (printf '...' | git bcindex mcp) must still get every answer. The SDK
// ends the session as soon as its reader sees the end of input, dropping
// the answers still being worked out. So the server reads stdin through a
// drainReader, which holds the end of input back until every request it
// passed on has been answered on stdout (seen by an answerWriter).

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

// wait returns once no request is pending, or ctx ends.
func (p *pending) wait(ctx context.Context) {
	p.mu.Lock()
	idle := p.idle
	p.mu.Unlock()
	select {
	case <-idle:
	case <-ctx.Done():
	}
}

// messages calls f for each JSON-RPC message of one line: a message, or a
// batch of them. A line that is not JSON-RPC is passed over (the SDK
// answers it with an error of its own, or not at all).
func messages(line []byte, f func(jsonrpc.Message)) {
	line = bytes.TrimSpace(line)
	if len(line) == 0 {
		return
	}
	if line[0] != '[' {
		if m, err := jsonrpc.DecodeMessage(line); err == nil {
			f(m)
		}
		return
	}
	var batch []json.RawMessage
	if json.Unmarshal(line, &batch) != nil {
		return
	}
	for _, raw := range batch {
		if m, err := jsonrpc.DecodeMessage(raw); err == nil {
			f(m)
		}
	}
}

// lines splits what passes through into newline-terminated lines.
type lines struct{ buf []byte }

func (l *lines) feed(p []byte, f func([]byte)) {
	l.buf = append(l.buf, p...)
	for {
		i := bytes.IndexByte(l.buf, '\n')
		if i < 0 {
			return
		}
		f(l.buf[:i])
		l.buf = l.buf[i+1:]
	}
}

// drainReader reads the client's messages, noting each request's ID, and
// reports the end of input only once those requests are answered.
type drainReader struct {
	ctx context.Context
	r   io.ReadCloser
	p   *pending
	ls  lines
	eof error // the end of input, held back
}

func (d *drainReader) Read(b []byte) (int, error) {
	if d.eof != nil {
		// Everything before the end has reached the SDK, which has
		// decoded each whole message it was given before asking for more.
		d.p.wait(d.ctx)
		return 0, d.eof
	}
	n, err := d.r.Read(b)
	d.ls.feed(b[:n], d.note)
	if err != nil {
		d.note(d.ls.buf) // a last line without its newline
		d.ls.buf = nil
		d.eof = err
		if n > 0 {
			return n, nil // hand these bytes over before holding the end back
		}
		d.p.wait(d.ctx)
	}
	return n, err
}

func (d *drainReader) note(line []byte) {
	messages(line, func(m jsonrpc.Message) {
		if r, ok := m.(*jsonrpc.Request); ok && r.IsCall() {
			d.p.add(r.ID)
		}
	})
}

func (d *drainReader) Close() error { return d.r.Close() }

// answerWriter writes the server's messages, noting each answer.
type answerWriter struct {
	w  io.Writer
	p  *pending
	ls lines
}

func (a *answerWriter) Write(b []byte) (int, error) {
	n, err := a.w.Write(b)
	a.ls.feed(b[:n], func(line []byte) {
		messages(line, func(m jsonrpc.Message) {
			if r, ok := m.(*jsonrpc.Response); ok {
				a.p.done(r.ID)
			}
		})
	})
	return n, err
}

// Close leaves the writer (stdout) open: the process still writes to it.
func (a *answerWriter) Close() error { return nil }
