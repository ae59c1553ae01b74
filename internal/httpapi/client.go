// Package httpapi is the JSON-over-HTTP client the remote embedders and the
// chat-completions client share: one POST with a bearer key, retried on
// 429 (honouring Retry-After), 5xx, timeouts and network errors with capped
// exponential backoff and jitter; other failures are returned at once as a
// StatusError the caller describes in its own terms.
package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"
)

// ErrTimeout reports a request that got no whole answer within the
// client's timeout (http.Client.Timeout).
var ErrTimeout = errors.New("no answer in time")

// maxResponseBytes bounds an answer read into memory.
const maxResponseBytes = 1 << 30

// Client posts JSON to a service.
type Client struct {
	HTTP  *http.Client
	Key   string // sent as a bearer token; never logged, redacted from messages
	Retry Policy
	// Describe turns a non-2xx answer into the error Post returns, so a
	// caller can classify it and add hints; nil returns the *StatusError.
	Describe func(*StatusError) error
	// Try, when set, is called as each attempt is sent (attempt counts
	// from 1); the function it returns is called when the attempt ends.
	Try func(attempt int) (done func())
}

// StatusError is a non-2xx answer.
type StatusError struct {
	URL    string
	Status int
	Code   string // the service's error code or type, e.g. "insufficient_quota"
	Msg    string // the service's message, the key redacted
}

func (e *StatusError) Error() string {
	s := fmt.Sprintf("POST %s: %d %s", e.URL, e.Status, http.StatusText(e.Status))
	if e.Code != "" {
		s += " (" + e.Code + ")"
	}
	if e.Msg != "" {
		s += ": " + e.Msg
	}
	return s
}

// Retryable reports whether another try may succeed: rate limits and
// server errors, but never an exhausted quota.
func (e *StatusError) Retryable() bool {
	return e.Code != "insufficient_quota" && (e.Status == http.StatusTooManyRequests || e.Status >= 500)
}

// Kind returns quota when the account has no quota left (OpenAI's
// "insufficient_quota"), auth when the credentials were rejected (401,
// 403), else nil: the caller's own errors for the two failures that need
// the user.
func (e *StatusError) Kind(quota, auth error) error {
	switch {
	case e.Code == "insufficient_quota":
		return quota
	case e.Status == http.StatusUnauthorized || e.Status == http.StatusForbidden:
		return auth
	}
	return nil
}

// Post sends body as JSON to u, retrying what is worth retrying, and returns
// the body of the 2xx answer.
func (c *Client) Post(ctx context.Context, u string, body any) ([]byte, error) {
	payload, err := json.Marshal(body)
	if err != nil {
		return nil, fmt.Errorf("encode request: %w", err)
	}
	for attempt := 1; ; attempt++ {
		var done func()
		if c.Try != nil {
			done = c.Try(attempt)
		}
		res := c.try(ctx, u, payload)
		if done != nil {
			done()
		}
		if res.err == nil {
			return res.body, nil
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if !res.retry {
			return nil, res.err
		}
		if attempt >= c.Retry.Attempts {
			return nil, fmt.Errorf("%w (gave up after %d attempts)", res.err, attempt)
		}
		wait := c.Retry.Backoff(attempt)
		if res.hasAfter {
			if res.after > c.Retry.MaxAfter {
				return nil, fmt.Errorf("%w (the server asks to retry after %s, longer than the %s bcindex waits)", res.err, res.after.Round(time.Second), c.Retry.MaxAfter)
			}
			wait = res.after
		}
		if err := c.Retry.Sleep(ctx, wait); err != nil {
			return nil, err
		}
	}
}

// attempt is the outcome of one request.
type attempt struct {
	body     []byte // of a 2xx answer
	err      error
	retry    bool          // err is worth another try
	after    time.Duration // the server's Retry-After, if hasAfter
	hasAfter bool
}

// try sends one request.
func (c *Client) try(ctx context.Context, u string, payload []byte) attempt {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u, bytes.NewReader(payload))
	if err != nil {
		return attempt{err: fmt.Errorf("POST %s: %w", u, err)}
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", "bcindex")
	if c.Key != "" {
		req.Header.Set("Authorization", "Bearer "+c.Key)
	}
	resp, err := c.HTTP.Do(req)
	if err != nil {
		if c.timedOut(ctx, err) {
			return attempt{err: c.timeoutErr(u), retry: !c.Retry.NoTimeoutRetry}
		}
		// Network errors are worth another try.
		return attempt{err: c.RedactErr(err), retry: true}
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxResponseBytes))
	if err != nil {
		if c.timedOut(ctx, err) {
			return attempt{err: c.timeoutErr(u), retry: !c.Retry.NoTimeoutRetry}
		}
		return attempt{err: fmt.Errorf("read response of POST %s: %w", u, err), retry: true}
	}
	if resp.StatusCode/100 == 2 {
		return attempt{body: body}
	}
	se := &StatusError{URL: u, Status: resp.StatusCode}
	se.Code, se.Msg = ParseErrorBody(body)
	se.Msg = c.Redact(se.Msg)
	a := attempt{err: se, retry: se.Retryable()}
	if c.Describe != nil {
		a.err = c.Describe(se)
	}
	if a.retry {
		a.after, a.hasAfter = RetryAfter(resp.Header, time.Now())
	}
	return a
}

// timedOut reports whether err is the client's timeout, not the caller's
// cancellation.
func (c *Client) timedOut(ctx context.Context, err error) bool {
	var te interface{ Timeout() bool }
	return ctx.Err() == nil && (errors.As(err, &te) && te.Timeout() || errors.Is(err, context.DeadlineExceeded))
}

func (c *Client) timeoutErr(u string) error {
	return fmt.Errorf("POST %s: %w: nothing within %s", u, ErrTimeout, c.HTTP.Timeout)
}

// ParseErrorBody reads OpenAI's {"error":{"message","type","code"}} or
// Ollama's {"error":"..."}; anything else becomes a short excerpt.
func ParseErrorBody(body []byte) (code, msg string) {
	var e struct {
		Error json.RawMessage `json:"error"`
	}
	if json.Unmarshal(body, &e) == nil && len(e.Error) > 0 {
		var s string
		if json.Unmarshal(e.Error, &s) == nil {
			return "", Clip(s, 300)
		}
		var o struct {
			Message string `json:"message"`
			Type    string `json:"type"`
			Code    any    `json:"code"`
		}
		if json.Unmarshal(e.Error, &o) == nil {
			code = o.Type
			if c, ok := o.Code.(string); ok && c != "" {
				code = c
			}
			return code, Clip(o.Message, 300)
		}
	}
	return "", Clip(string(body), 300)
}

// Clip folds white space and shortens s to about n bytes.
func Clip(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > n {
		s = TruncateUTF8(s, n) + "…"
	}
	return s
}

// TruncateUTF8 cuts s to at most n bytes without splitting a rune.
func TruncateUTF8(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// Redact removes the key from a message a server or transport made.
func (c *Client) Redact(s string) string {
	if c.Key == "" {
		return s
	}
	return strings.ReplaceAll(s, c.Key, "[REDACTED]")
}

// RedactErr is Redact for an error; an error without the key is kept whole.
func (c *Client) RedactErr(err error) error {
	if c.Key == "" || !strings.Contains(err.Error(), c.Key) {
		return err
	}
	return errors.New(c.Redact(err.Error()))
}
