package llm_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/bcindex/bcindex/internal/httpapi"
	"github.com/bcindex/bcindex/internal/testkit/chattest"
	"github.com/bcindex/bcindex/llm"
)

const testKey = "sk-test-secret-0123456789"

// newClient returns a client of the stand-in service that records its
// retry waits instead of sleeping.
func newClient(t *testing.T, s *chattest.Server, key string) (*llm.Client, *[]time.Duration) {
	t.Helper()
	var waits []time.Duration
	p := httpapi.DefaultPolicy()
	p.Attempts = 3
	p.Sleep = func(ctx context.Context, d time.Duration) error { waits = append(waits, d); return ctx.Err() }
	c, err := llm.New(llm.Config{URL: s.URL + "/", Model: "test-chat", KeyEnv: "BCINDEX_TEST_KEY", APIKey: key, Retry: &p, Timeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	return c, &waits
}

func userMsg(s string) []llm.Message { return []llm.Message{{Role: llm.RoleUser, Content: s}} }

// The stand-in service speaks the documented chat-completions format: the
// request carries model, messages and tools with their JSON Schemas; the
// answer's tool calls, finish reason and usage come back.
func TestChatToolCalls(t *testing.T) {
	s := chattest.New(t, chattest.Calls(chattest.Call("call_1", "search", `{"query":"retry"}`)))
	c, _ := newClient(t, s, testKey)
	tools := []llm.Tool{{Type: "function", Function: llm.Function{Name: "search", Description: "search code", Parameters: []byte(`{"type":"object","properties":{"query":{"type":"string"}}}`)}}}
	r, err := c.Chat(context.Background(), llm.Request{Messages: userMsg("where are retries?"), Tools: tools, ToolChoice: "auto"})
	if err != nil {
		t.Fatal(err)
	}
	if r.FinishReason != "tool_calls" || len(r.Message.ToolCalls) != 1 || r.Message.ToolCalls[0].Function.Arguments != `{"query":"retry"}` {
		t.Fatalf("reply %+v", r)
	}
	if r.Estimated || r.Usage.TotalTokens == 0 {
		t.Errorf("usage %+v estimated %v", r.Usage, r.Estimated)
	}
	req := s.Requests()[0]
	if req.Model != "test-chat" || len(req.Tools) != 1 || req.Tools[0].Function.Name != "search" || req.ToolChoice != "auto" {
		t.Errorf("request %+v", req)
	}
	if got := s.Auth()[0]; got != "Bearer "+testKey {
		t.Errorf("Authorization %q", got)
	}
}

// Rate limits with Retry-After, 5xx and a cut connection are retried as the
// remote embedders retry them; the wait asked for is the wait taken.
func TestChatRetries(t *testing.T) {
	s := chattest.New(t,
		chattest.Status(http.StatusTooManyRequests, "rate_limit_exceeded", "slow down", "Retry-After", "7"),
		chattest.Status(http.StatusBadGateway, "server_error", "upstream"),
		chattest.Text("done"))
	c, waits := newClient(t, s, "")
	r, err := c.Chat(context.Background(), llm.Request{Messages: userMsg("hi")})
	if err != nil || r.Message.Content != "done" {
		t.Fatalf("%+v, %v", r, err)
	}
	if len(*waits) != 2 || (*waits)[0] != 7*time.Second {
		t.Errorf("waits %v", *waits)
	}
	if a := s.Auth(); a[0] != "" {
		t.Errorf("no key configured, but sent %q", a[0])
	}
	// Three 500s: gives up, saying so.
	s = chattest.New(t, chattest.Status(500, "server_error", "x"), chattest.Status(500, "server_error", "x"), chattest.Status(500, "server_error", "x"))
	c, _ = newClient(t, s, "")
	if _, err := c.Chat(context.Background(), llm.Request{Messages: userMsg("hi")}); err == nil || !strings.Contains(err.Error(), "gave up after 3 attempts") {
		t.Errorf("err = %v", err)
	}
}

// A request that hangs past the timeout is cut, reported with the
// timeout, and not tried again (a model slower than the timeout once would
// be as slow again); meanwhile Waiting hears of it.
func TestChatTimeout(t *testing.T) {
	release := make(chan struct{})
	s := chattest.NewFunc(t, func(int, chattest.Request) chattest.Step {
		return func(http.ResponseWriter, chattest.Request) {
			select {
			case <-release:
			case <-time.After(5 * time.Second):
			}
		}
	})
	t.Cleanup(func() { close(release) })
	p := httpapi.DefaultPolicy()
	p.Attempts, p.Sleep = 2, func(ctx context.Context, _ time.Duration) error { return ctx.Err() }
	c, err := llm.New(llm.Config{URL: s.URL, Model: "m", Timeout: 300 * time.Millisecond, Retry: &p})
	if err != nil {
		t.Fatal(err)
	}
	var waited []time.Duration
	c.Waiting, c.WaitEvery = func(d time.Duration) { waited = append(waited, d) }, 50*time.Millisecond
	_, err = c.Chat(context.Background(), llm.Request{Messages: userMsg("hi")})
	if !errors.Is(err, llm.ErrTimeout) || !strings.Contains(err.Error(), "300ms") {
		t.Errorf("err = %v", err)
	}
	if n := len(s.Requests()); n != 1 {
		t.Errorf("%d requests, want 1", n)
	}
	if len(waited) < 3 || waited[0] < 50*time.Millisecond {
		t.Errorf("Waiting called at %v", waited)
	}
}

// ReadConfig takes bcindex.enhance.timeout as a duration, refuses a
// nonsense one, and refuses a key in git config with a hint that agrees.
func TestReadConfigTimeoutAndKey(t *testing.T) {
	conf := func(kv ...string) func(string) string {
		return func(k string) string {
			for i := 0; i < len(kv); i += 2 {
				if kv[i] == k {
					return kv[i+1]
				}
			}
			return ""
		}
	}
	cfg, err := llm.ReadConfig(conf("url", "http://127.0.0.1:1/v1", "model", "m", "timeout", "90s"))
	if err != nil || cfg.Timeout != 90*time.Second {
		t.Errorf("timeout 90s: %+v, %v", cfg, err)
	}
	var ce *llm.ConfigError
	if _, err := llm.ReadConfig(conf("url", "http://127.0.0.1:1/v1", "model", "m", "timeout", "soon")); !errors.As(err, &ce) || ce.Key != "bcindex.enhance.timeout" {
		t.Errorf("timeout soon: %v", err)
	}
	_, err = llm.ReadConfig(conf("url", "http://127.0.0.1:1/v1", "model", "m", "key", "sk-1"))
	if !errors.As(err, &ce) || !strings.Contains(ce.Msg, "not read from git config") || !strings.Contains(ce.Hint, "--unset bcindex.enhance.key") || strings.Contains(ce.Hint, "git config bcindex.enhance.key ") {
		t.Errorf("key in git config: %v, hint %q", err, ce.Hint)
	}
}

// Errors that are not worth retrying are classified, hinted, and never
// show the key even when the service echoes it.
func TestChatErrors(t *testing.T) {
	cases := []struct {
		step chattest.Step
		is   error
		want string
	}{
		{chattest.Status(401, "invalid_api_key", "bad key "+testKey), llm.ErrAuth, "BCINDEX_TEST_KEY"},
		{chattest.Status(429, "insufficient_quota", "no money"), llm.ErrQuota, "no quota left"},
		{chattest.Status(404, "not_found", "no such model"), nil, "bcindex.enhance.url"},
		{chattest.Raw(`{"choices":[{"message":{"role":"assistant","content":"cut`), llm.ErrMalformed, "decode the answer"},
		{chattest.Raw(`{"choices":[]}`), llm.ErrMalformed, "no choices"},
	}
	for _, tc := range cases {
		s := chattest.New(t, tc.step)
		c, waits := newClient(t, s, testKey)
		_, err := c.Chat(context.Background(), llm.Request{Messages: userMsg("hi")})
		if err == nil || (tc.is != nil && !errors.Is(err, tc.is)) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("err = %v, want %v containing %q", err, tc.is, tc.want)
			continue
		}
		if strings.Contains(err.Error(), testKey) {
			t.Errorf("key leaked: %v", err)
		}
		if len(*waits) != 0 {
			t.Errorf("%v: retried (%v)", err, *waits)
		}
	}
}

// A structured answer: fenced JSON is read, unknown fields, truncated
// objects and failed checks are ErrMalformed.
func TestDecodeJSON(t *testing.T) {
	type ans struct {
		Summary string `json:"summary"`
	}
	check := func(a *ans) func() error {
		return func() error {
			if a.Summary == "" {
				return errors.New("empty summary")
			}
			return nil
		}
	}
	cases := []struct {
		content, finish string
		ok              bool
	}{
		{`{"summary":"adds {braces} \"quoted\""}`, "stop", true},
		{"Here it is:\n```json\n{\"summary\":\"x\"}\n```", "stop", true},
		{`{"summary":"x","extra":1}`, "stop", false},
		{`{"summary":"x"`, "stop", false},
		{`{"summary":""}`, "stop", false},
		{`{"summary":"x"}`, "length", false},
		{`I cannot help with that.`, "stop", false},
	}
	for _, tc := range cases {
		var a ans
		err := llm.DecodeJSON(llm.Reply{Message: llm.Message{Content: tc.content}, FinishReason: tc.finish}, &a, check(&a))
		if (err == nil) != tc.ok || (err != nil && !errors.Is(err, llm.ErrMalformed)) {
			t.Errorf("%q %s: %v", tc.content, tc.finish, err)
		}
	}
}

// Configuration: opt-in, keys never from git config, names checked.
func TestReadConfig(t *testing.T) {
	get := func(kv map[string]string) func(string) string { return func(k string) string { return kv[k] } }
	if _, err := llm.ReadConfig(get(nil)); !errors.Is(err, llm.ErrNotConfigured) {
		t.Errorf("unset: %v", err)
	}
	cfg, err := llm.ReadConfig(get(map[string]string{"url": "http://127.0.0.1:11434/v1/chat/completions", "model": "qwen2.5-coder:7b"}))
	if err != nil || cfg.URL != "http://127.0.0.1:11434/v1" {
		t.Errorf("%+v %v", cfg, err)
	}
	for _, kv := range []map[string]string{
		{"url": "http://h/v1", "model": "m", "key": "sk-1"},
		{"url": "http://h/v1", "model": "m", "keyEnv": "sk-live-1234"},
		{"url": "ftp://h", "model": "m"},
		{"url": "http://u:p@h/v1", "model": "m"},
		{"url": "http://h/v1"},
	} {
		var ce *llm.ConfigError
		if _, err := llm.ReadConfig(get(kv)); !errors.As(err, &ce) {
			t.Errorf("%v: %v", kv, err)
		}
	}
	t.Setenv("BCINDEX_TEST_KEY", "from-env")
	s := chattest.New(t, chattest.Text("ok"))
	c, err := llm.New(llm.Config{URL: s.URL, Model: "m", KeyEnv: "BCINDEX_TEST_KEY"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Chat(context.Background(), llm.Request{Messages: userMsg("hi")}); err != nil || s.Auth()[0] != "Bearer from-env" {
		t.Errorf("%v %v", err, s.Auth())
	}
}

// Some local servers send a tool call's arguments as an object instead of
// a JSON string: both read the same.
func TestToolCallArgumentsAsObject(t *testing.T) {
	s := chattest.New(t, chattest.Raw(`{"choices":[{"index":0,"finish_reason":"tool_calls","message":{"role":"assistant","content":null,`+
		`"tool_calls":[{"id":"a","type":"function","function":{"name":"read_file","arguments":{"path":"x.go"}}},`+
		`{"id":"b","type":"function","function":{"name":"list_directory","arguments":"{\"path\":\"\"}"}}]}}]}`))
	c, _ := newClient(t, s, "")
	r, err := c.Chat(context.Background(), llm.Request{Messages: userMsg("hi")})
	if err != nil || len(r.Message.ToolCalls) != 2 {
		t.Fatalf("%+v, %v", r, err)
	}
	if a, b := r.Message.ToolCalls[0].Function.Arguments, r.Message.ToolCalls[1].Function.Arguments; a != `{"path":"x.go"}` || b != `{"path":""}` {
		t.Errorf("arguments %q, %q", a, b)
	}
	if !r.Estimated || r.Usage.TotalTokens == 0 {
		t.Errorf("no usage sent: %+v estimated %v", r.Usage, r.Estimated)
	}
}

// Waiting hears how long the try in flight has waited, never the sum of
// the tries and the pauses between them (the timeout bounds each try), and
// Sent counts every try.
func TestChatWaitingPerTry(t *testing.T) {
	s := chattest.NewFunc(t, func(int, chattest.Request) chattest.Step {
		return func(w http.ResponseWriter, r chattest.Request) {
			time.Sleep(120 * time.Millisecond)
			chattest.Status(http.StatusServiceUnavailable, "server_error", "busy")(w, r)
		}
	})
	p := httpapi.DefaultPolicy()
	p.Attempts = 3
	p.Sleep = func(ctx context.Context, _ time.Duration) error { time.Sleep(200 * time.Millisecond); return ctx.Err() }
	const timeout = 1 * time.Second
	c, err := llm.New(llm.Config{URL: s.URL, Model: "m", Timeout: timeout, Retry: &p})
	if err != nil {
		t.Fatal(err)
	}
	var waited []time.Duration
	var tries []int
	c.Waiting, c.WaitEvery = func(d time.Duration) {
		waited = append(waited, d)
		n, of := c.Attempt()
		if of != 3 {
			t.Errorf("Attempt says %d tries, want 3", of)
		}
		tries = append(tries, n)
	}, 20*time.Millisecond
	if _, err := c.Chat(context.Background(), llm.Request{Messages: userMsg("hi")}); err == nil || !strings.Contains(err.Error(), "gave up after 3 attempts") {
		t.Fatalf("err = %v", err)
	}
	if n := c.Sent(); n != 3 || len(s.Requests()) != 3 {
		t.Errorf("Sent() = %d, the service saw %d, want 3", n, len(s.Requests()))
	}
	if len(waited) == 0 {
		t.Fatal("Waiting was never called")
	}
	for i, d := range waited {
		if d > 300*time.Millisecond || tries[i] < 1 {
			t.Errorf("Waiting heard %s on try %d: more than one try's 120 ms (the tries and pauses add up to 760 ms)", d, tries[i])
		}
	}
	if tries[len(tries)-1] != 3 {
		t.Errorf("last Waiting call on try %d, want 3", tries[len(tries)-1])
	}
}
