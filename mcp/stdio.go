package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// The SDK's stdio transport treats a line it cannot decode as the end of
// the connection: one stray line (a shell's echo, a half-written request)
// ends the server with no reply. bcindex serves stdio through its own
// transport instead, the SDK's documented extension point, which frames
// the stream itself:
//
//   - a line that is not JSON gets a parse error (-32700) with a null id;
//   - JSON that is not a JSON-RPC message, a batch (MCP dropped batches in
//     2025-06-18) or a line longer than maxLine gets an invalid-request
//     error (-32600), with the request's id when it has a usable one; so
//     does a message with an id but neither a method nor a result or error;
//   - either way the server reads on, and the lines before and after are
//     answered as usual.
//
// It also holds the end of input back until every request read before it
// is answered (see pending), so `printf '...' | git bcindex mcp` gets
// every answer.

// maxLine is the longest line read as a request. Tool arguments are a
// query, a path, a glob: a few hundred bytes. A longer line is skipped
// without being held in memory.
const maxLine = 4 << 20

// lineTransport is an sdk.Transport over newline-delimited JSON-RPC.
type lineTransport struct {
	in      io.ReadCloser
	out     io.Writer
	maxLine int
	conn    *lineConn // once connected
}

func (t *lineTransport) Connect(context.Context) (sdk.Connection, error) {
	limit := t.maxLine
	if limit <= 0 {
		limit = maxLine
	}
	c := &lineConn{out: t.out, in: t.in, limit: limit, p: newPending(), lines: make(chan frame), closed: make(chan struct{})}
	go c.readLines(bufio.NewReaderSize(t.in, 64<<10))
	t.conn = c
	return c, nil
}

// frame is one line read, or why reading stopped.
type frame struct {
	line    []byte
	tooLong int // bytes of a line longer than the limit, skipped
	err     error
}

// lineConn is the server's end of the stream.
type lineConn struct {
	in    io.Closer
	out   io.Writer
	limit int        // longest line read
	wmu   sync.Mutex // one message per write, whole lines only
	werr  error      // the write that failed, under wmu

	p         *pending
	codes     errorCodes
	lines     chan frame
	closed    chan struct{}
	closeOnce sync.Once
}

var _ sdk.Connection = (*lineConn)(nil)

// readLines sends each line of r, without its newline, until r ends. It
// runs in a goroutine of its own so that Close unblocks Read even while
// stdin stays open.
func (c *lineConn) readLines(r *bufio.Reader) {
	for {
		line, n, err := readLine(r, c.limit)
		f := frame{line: line, err: err}
		if n > c.limit {
			f.line, f.tooLong = nil, n
		}
		if len(f.line) > 0 || f.tooLong > 0 || err != nil {
			select {
			case c.lines <- f:
			case <-c.closed:
				return
			}
		}
		if err != nil {
			return
		}
	}
}

// readLine reads up to the next newline or the end of input, keeping at
// most limit bytes; n counts them all. err is set only when nothing of a
// line is left to return.
func readLine(r *bufio.Reader, limit int) (line []byte, n int, err error) {
	for {
		part, err := r.ReadSlice('\n')
		n += len(part)
		if n <= limit {
			line = append(line, part...)
		}
		switch {
		case err == bufio.ErrBufferFull:
			continue
		case err != nil && n > 0:
			return bytes.TrimSpace(line), n, nil // the last line, without its newline
		case err != nil:
			return nil, 0, err
		}
		return bytes.TrimSpace(line), n, nil
	}
}

// Read returns the next message, answering the lines that hold none.
func (c *lineConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	for {
		var f frame
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-c.closed:
			return nil, io.EOF
		case f = <-c.lines:
		}
		if f.err != nil {
			// Every request read before the end of input is answered
			// before the SDK hears of it and ends the session.
			c.p.wait(ctx, c.closed)
			return nil, f.err
		}
		if f.tooLong > 0 {
			msg := fmt.Sprintf("Invalid Request: a line of %d bytes, longer than the %d bytes a request may take; it was skipped", f.tooLong, c.limit)
			if err := c.reject(nil, jsonrpc.CodeInvalidRequest, msg); err != nil {
				return nil, err
			}
			continue
		}
		msg, id, code, why := decode(f.line)
		if msg == nil {
			if err := c.reject(id, code, why); err != nil {
				return nil, err
			}
			continue
		}
		if r, ok := msg.(*jsonrpc.Request); ok && r.IsCall() {
			c.p.add(r.ID)
			c.codes.read(r)
		}
		return msg, nil
	}
}

// decode reads one line as a JSON-RPC message; when it holds none, it
// returns the error code, the message and the id to answer with (nil:
// null).
func decode(line []byte) (msg jsonrpc.Message, id json.RawMessage, code int64, why string) {
	if !json.Valid(line) {
		var v any
		err := json.Unmarshal(line, &v) // says where and why
		return nil, nil, jsonrpc.CodeParseError, "Parse error: " + err.Error()
	}
	if line[0] == '[' {
		return nil, nil, jsonrpc.CodeInvalidRequest, "Invalid Request: batches are not supported; send one request per line"
	}
	var obj struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(line, &obj) == nil && usableID(obj.ID) {
		id = obj.ID
	}
	m, err := jsonrpc.DecodeMessage(line)
	if err != nil {
		return nil, id, jsonrpc.CodeInvalidRequest, "Invalid Request: " + err.Error()
	}
	if r, ok := m.(*jsonrpc.Response); ok && r.Result == nil && r.Error == nil {
		// Neither a request (no method) nor a response (no result, no
		// error): JSON-RPC 2.0 answers it as an invalid request.
		return nil, id, jsonrpc.CodeInvalidRequest, `Invalid Request: a message with an "id" needs a "method" (a request) or a "result" or "error" (a response)`
	}
	return m, nil, 0, ""
}

// usableID reports whether raw is an id a reply may carry back: a string
// or a number.
func usableID(raw json.RawMessage) bool {
	if len(raw) == 0 {
		return false
	}
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return false
	}
	switch v.(type) {
	case string, float64:
		return true
	}
	return false
}

// errorReply is a JSON-RPC error response; ID is written as null when nil.
type errorReply struct {
	Version string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Error   struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// reject answers a line that holds no message.
func (c *lineConn) reject(id json.RawMessage, code int64, msg string) error {
	r := errorReply{Version: "2.0", ID: id}
	if r.ID == nil {
		r.ID = json.RawMessage("null")
	}
	r.Error.Code, r.Error.Message = code, msg
	data, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("encode error reply: %w", err)
	}
	return c.writeLine(data)
}

// Write sends one message on its own line.
func (c *lineConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if r, ok := msg.(*jsonrpc.Response); ok {
		msg = c.codes.answer(r)
	}
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return fmt.Errorf("encode message: %w", err)
	}
	if err := c.writeLine(data); err != nil {
		return err
	}
	if r, ok := msg.(*jsonrpc.Response); ok {
		c.p.done(r.ID)
	}
	return nil
}

func (c *lineConn) writeLine(data []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	select {
	case <-c.closed:
		return sdk.ErrConnectionClosed
	default:
	}
	if _, err := c.out.Write(append(data, '\n')); err != nil {
		c.werr = fmt.Errorf("write to the client: %w", err)
		c.Close() // the client is gone: stop reading for it
		return c.werr
	}
	return nil
}

// Close stops reading; the output (stdout) stays open.
func (c *lineConn) Close() error {
	var err error
	c.closeOnce.Do(func() {
		close(c.closed)
		err = c.in.Close()
	})
	if errors.Is(err, io.ErrClosedPipe) {
		return nil
	}
	return err
}

func (c *lineConn) SessionID() string { return "" }

// writeErr is the write that ended the connection, if one did.
func (c *lineConn) writeErr() error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	return c.werr
}
