// Package chattest stands in for an OpenAI-compatible chat-completions
// service in tests, since no model runs on the machines the tests run on.
// It speaks the documented wire format: POST {base}/chat/completions with
// {"model","messages","tools",...}, answered by
// {"choices":[{"message":{...},"finish_reason":...}],"usage":{...}}; errors
// as {"error":{"message","type","code"}} with their HTTP status.
package chattest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
)

// Step answers one request.
type Step func(w http.ResponseWriter, req Request)

// Server is a scripted chat-completions service.
type Server struct {
	URL string // base URL, with /v1
	t   testing.TB

	mu       sync.Mutex
	requests []Request
	auth     []string // Authorization headers seen
	next     func(n int, req Request) Step
}

// New serves steps in order, one per request; a request past the script
// fails the test.
func New(t testing.TB, steps ...Step) *Server {
	return NewFunc(t, func(n int, _ Request) Step {
		if n >= len(steps) {
			return nil
		}
		return steps[n]
	})
}

// NewFunc serves the step next picks for the n-th request (from 0); nil
// fails the test.
func NewFunc(t testing.TB, next func(n int, req Request) Step) *Server {
	s := &Server{t: t, next: next}
	srv := httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(srv.Close)
	s.URL = srv.URL + "/v1"
	return s
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.URL.Path != "/v1/chat/completions" {
		s.t.Errorf("chattest: %s %s, want POST /v1/chat/completions", r.Method, r.URL.Path)
		http.NotFound(w, r)
		return
	}
	var req Request
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		s.t.Errorf("chattest: request body: %v", err)
		Status(http.StatusBadRequest, "invalid_request_error", "bad body")(w, req)
		return
	}
	s.mu.Lock()
	n := len(s.requests)
	s.requests = append(s.requests, req)
	s.auth = append(s.auth, r.Header.Get("Authorization"))
	s.mu.Unlock()
	step := s.next(n, req)
	if step == nil {
		s.t.Errorf("chattest: unscripted request %d: %s", n+1, lastContent(req))
		Status(http.StatusInternalServerError, "server_error", "unscripted")(w, req)
		return
	}
	step(w, req)
}

// Requests returns the requests received so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// Auth returns the Authorization headers received so far.
func (s *Server) Auth() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.auth...)
}

// Reply answers with msg and finish, counting usage from the sizes.
func Reply(msg Message, finish string) Step {
	return func(w http.ResponseWriter, req Request) {
		msg.Role = "assistant"
		in := 0
		for _, m := range req.Messages {
			in += len(m.Content)
		}
		body := map[string]any{
			"id": "chatcmpl-test", "object": "chat.completion", "model": req.Model,
			"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish}},
			"usage":   map[string]int{"prompt_tokens": in / 4, "completion_tokens": len(msg.Content) / 4, "total_tokens": in/4 + len(msg.Content)/4},
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(body)
	}
}

// Text answers with text and finish_reason "stop".
func Text(text string) Step { return Reply(Message{Content: text}, "stop") }

// Calls answers with tool calls and finish_reason "tool_calls".
func Calls(calls ...ToolCall) Step {
	return Reply(Message{ToolCalls: calls}, "tool_calls")
}

// Call is a function call with id, the tool's name and raw JSON arguments.
func Call(id, name, args string) ToolCall {
	return ToolCall{ID: id, Type: "function", Function: FunctionCall{Name: name, Arguments: args}}
}

// Status answers with an HTTP error in OpenAI's error format; header holds
// name, value pairs such as "Retry-After", "1".
func Status(code int, typ, msg string, header ...string) Step {
	return func(w http.ResponseWriter, _ Request) {
		for i := 0; i+1 < len(header); i += 2 {
			w.Header().Set(header[i], header[i+1])
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(code)
		fmt.Fprintf(w, `{"error":{"message":%q,"type":%q,"code":null}}`, msg, typ)
	}
}

// Raw answers 200 with body as it is, e.g. truncated JSON.
func Raw(body string) Step {
	return func(w http.ResponseWriter, _ Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, body)
	}
}

func lastContent(req Request) string {
	if len(req.Messages) == 0 {
		return "(no messages)"
	}
	c := req.Messages[len(req.Messages)-1].Content
	if len(c) > 200 {
		c = c[:200] + "…"
	}
	return c
}
