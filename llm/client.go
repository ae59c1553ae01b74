package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/bcindex/bcindex/internal/httpapi"
)

// Client talks to one model of an OpenAI-compatible chat-completions API.
type Client struct {
	endpoint string // base URL without a trailing slash
	model    string
	keyEnv   string // the variable the key came from, for hints
	timeout  time.Duration
	api      *httpapi.Client

	// Waiting, when set, is called every WaitEvery while a request is
	// unanswered, with the time since it was sent: a command shows that it
	// is waiting for the model rather than stuck.
	Waiting   func(elapsed time.Duration)
	WaitEvery time.Duration // 0: DefaultWaitEvery

	mu       sync.Mutex
	sent     int       // HTTP requests sent, retries included
	attempt  int       // of the request in flight, from 1; 0: none in flight
	tryStart time.Time // when the attempt in flight was sent
}

// DefaultWaitEvery is how often Client.Waiting is called by default.
const DefaultWaitEvery = 10 * time.Second

// ErrTimeout reports a request the service did not answer within the
// timeout (Config.Timeout).
var ErrTimeout = httpapi.ErrTimeout

// ErrAuth reports that the service rejected the key (HTTP 401 or 403).
var ErrAuth = errors.New("chat service rejected the credentials")

// ErrQuota reports that the account behind the key has no quota left.
var ErrQuota = errors.New("chat service quota exhausted")

// ErrMalformed reports an answer that does not follow the wire format or
// the structure asked for.
var ErrMalformed = errors.New("malformed answer")

// New returns a client for cfg; it sends nothing.
func New(cfg Config) (*Client, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	timeout := cfg.Timeout
	if timeout == 0 {
		timeout = DefaultTimeout
	}
	c := &Client{endpoint: cfg.URL, model: cfg.Model, keyEnv: cfg.KeyEnv, timeout: timeout}
	retry := httpapi.DefaultPolicy()
	if cfg.Retry != nil {
		retry = *cfg.Retry
	}
	retry.NoTimeoutRetry = true
	c.api = &httpapi.Client{HTTP: &http.Client{Timeout: timeout}, Key: cfg.key(), Retry: retry, Describe: c.describe, Try: c.try}
	return c, nil
}

// try notes an attempt in flight, for Sent, Attempt and Waiting.
func (c *Client) try(attempt int) (done func()) {
	c.mu.Lock()
	c.sent++
	c.attempt, c.tryStart = attempt, time.Now()
	c.mu.Unlock()
	return func() {
		c.mu.Lock()
		c.attempt = 0
		c.mu.Unlock()
	}
}

// Sent is the number of HTTP requests sent so far, retries included.
func (c *Client) Sent() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.sent
}

// Attempt returns the try the request in flight is (from 1) and how many
// tries a request gets; n is 0 when none is in flight.
func (c *Client) Attempt() (n, of int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.attempt, c.api.Retry.Attempts
}

// inFlight returns how long the attempt in flight has been waiting.
func (c *Client) inFlight() (time.Duration, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return time.Since(c.tryStart), c.attempt > 0
}

// Timeout is how long one request may take.
func (c *Client) Timeout() time.Duration { return c.timeout }

// Model returns the model name requests ask for.
func (c *Client) Model() string { return c.model }

// Endpoint returns the base URL requests go to.
func (c *Client) Endpoint() string { return c.endpoint }

// Chat sends one request and returns the first choice. The model and
// messages are checked; req.Model defaults to the configured one.
func (c *Client) Chat(ctx context.Context, req Request) (Reply, error) {
	if req.Model == "" {
		req.Model = c.model
	}
	if len(req.Messages) == 0 {
		return Reply{}, fmt.Errorf("chat: no messages")
	}
	stop := c.waiting()
	body, err := c.api.Post(ctx, c.endpoint+"/chat/completions", req)
	stop()
	if err != nil {
		return Reply{}, fmt.Errorf("chat with %s: %w", c.model, err)
	}
	var resp response
	if err := json.Unmarshal(body, &resp); err != nil {
		return Reply{}, fmt.Errorf("chat with %s: %w: decode the answer of %s/chat/completions: %v (%s)", c.model, ErrMalformed, c.endpoint, err, httpapi.Clip(string(body), 120))
	}
	if len(resp.Choices) == 0 {
		return Reply{}, fmt.Errorf("chat with %s: %w: the answer holds no choices", c.model, ErrMalformed)
	}
	ch := resp.Choices[0]
	r := Reply{Message: ch.Message, FinishReason: ch.FinishReason}
	if resp.Usage != nil && resp.Usage.TotalTokens > 0 {
		r.Usage = *resp.Usage
	} else {
		r.Usage, r.Estimated = estimate(req, ch.Message), true
	}
	return r, nil
}

// waiting calls c.Waiting every WaitEvery, with the time the attempt in
// flight has waited (the timeout bounds each attempt, not their sum), until
// the returned stop is called; not while it sleeps between attempts.
func (c *Client) waiting() (stop func()) {
	if c.Waiting == nil {
		return func() {}
	}
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		every := c.WaitEvery
		if every <= 0 {
			every = DefaultWaitEvery
		}
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				if d, ok := c.inFlight(); ok && d >= every/2 {
					c.Waiting(d)
				}
			}
		}
	}()
	return func() { close(done); <-finished }
}

// estimate counts about four bytes a token, for services that report no
// usage, so that token budgets still bind.
func estimate(req Request, reply Message) Usage {
	in := 0
	for _, m := range req.Messages {
		in += len(m.Content)
		for _, tc := range m.ToolCalls {
			in += len(tc.Function.Name) + len(tc.Function.Arguments)
		}
	}
	for _, t := range req.Tools {
		in += len(t.Function.Description) + len(t.Function.Parameters)
	}
	out := len(reply.Content)
	for _, tc := range reply.ToolCalls {
		out += len(tc.Function.Name) + len(tc.Function.Arguments)
	}
	u := Usage{PromptTokens: Tokens(in), CompletionTokens: Tokens(out)}
	u.TotalTokens = u.PromptTokens + u.CompletionTokens
	return u
}

// Tokens estimates the tokens of n bytes of text or code.
func Tokens(n int) int { return (n + 3) / 4 }

// APIError is a failed request, described with what to check.
type APIError struct {
	*httpapi.StatusError
	kind   error // ErrAuth, ErrQuota or nil
	keyEnv string
}

func (e *APIError) Error() string {
	s := e.StatusError.Error()
	switch {
	case errors.Is(e.kind, ErrQuota):
		s += "; the account behind the key has no quota left"
	case errors.Is(e.kind, ErrAuth) && e.keyEnv == "":
		s += "; the service wants a key: export it and name the variable with `git config bcindex.enhance.keyEnv VARIABLE`"
	case errors.Is(e.kind, ErrAuth):
		s += "; check the key in the environment variable " + e.keyEnv
	case e.Status == http.StatusNotFound:
		s += "; check git config bcindex.enhance.url (the API base URL, e.g. http://127.0.0.1:11434/v1) and bcindex.enhance.model"
	}
	return s
}

func (e *APIError) Unwrap() []error {
	if e.kind == nil {
		return []error{e.StatusError}
	}
	return []error{e.StatusError, e.kind}
}

func (c *Client) describe(se *httpapi.StatusError) error {
	return &APIError{StatusError: se, keyEnv: c.keyEnv, kind: se.Kind(ErrQuota, ErrAuth)}
}

// cleanURL validates a base URL and drops a trailing slash or a pasted
// /chat/completions.
func cleanURL(raw string) (string, error) {
	s, err := httpapi.CleanBaseURL(raw, "/chat/completions")
	msg := ""
	switch {
	case errors.Is(err, httpapi.ErrNotHTTP):
		msg = fmt.Sprintf("%q: want the API's base URL, e.g. http://127.0.0.1:11434/v1 (Ollama) or https://api.openai.com/v1", raw)
	case errors.Is(err, httpapi.ErrCredentials):
		msg = "must not contain credentials; put the key in an environment variable named by bcindex.enhance.keyEnv"
	case errors.Is(err, httpapi.ErrQuery):
		msg = fmt.Sprintf("%q: want a base URL without query or fragment", httpapi.Redacted(raw))
	}
	if err != nil {
		return "", &ConfigError{Key: "bcindex.enhance.url", Msg: msg}
	}
	return s, nil
}
