package mcp

import (
	"errors"
	"fmt"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// The SDK answers some requests with a plain Go error, which goes out with
// "code": 0, a code JSON-RPC 2.0 does not define; the request before
// "initialize" is one. errorCodes gives every such answer a code: -32600
// (Invalid Request) to a request the session cannot take before it is
// initialized, -32603 (Internal error) to anything else. Errors that carry
// a code keep it.

// errorCodes remembers the method of each request read and whether the
// session was initialized.
type errorCodes struct {
	mu          sync.Mutex
	methods     map[jsonrpc.ID]string // requests read and not yet answered
	initialized bool                  // an initialize request was answered without error
}

// read notes a request the server will answer.
func (e *errorCodes) read(r *jsonrpc.Request) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.methods == nil {
		e.methods = map[jsonrpc.ID]string{}
	}
	e.methods[r.ID] = r.Method
}

// answer returns r with an error code when its error has none.
func (e *errorCodes) answer(r *jsonrpc.Response) *jsonrpc.Response {
	e.mu.Lock()
	defer e.mu.Unlock()
	method, known := e.methods[r.ID]
	delete(e.methods, r.ID)
	if method == "initialize" && r.Error == nil {
		e.initialized = true
	}
	var coded *jsonrpc.Error
	if r.Error == nil || (errors.As(r.Error, &coded) && coded.Code != 0) {
		return r
	}
	out := *r
	switch {
	case known && !e.initialized && method != "initialize":
		out.Error = &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest,
			Message: fmt.Sprintf("Invalid Request: %v; send \"initialize\" first", r.Error)}
	default:
		out.Error = &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: r.Error.Error()}
	}
	return &out
}
