package httpapi

import (
	"context"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Policy bounds how a request is retried.
type Policy struct {
	Attempts int           // total tries, the first included
	Base     time.Duration // first backoff; doubled on every further attempt
	Max      time.Duration // cap on one backoff
	MaxAfter time.Duration // longest Retry-After honoured; longer waits fail at once
	// NoTimeoutRetry fails a request that timed out at once: a service that
	// takes longer than the timeout once (a chat model writing a long
	// answer) will most likely take as long again.
	NoTimeoutRetry bool
	// Sleep waits d or until ctx is done; tests replace it to record waits.
	Sleep func(ctx context.Context, d time.Duration) error
}

// DefaultPolicy is six tries with backoff from half a second to 20 s, and
// server-requested waits of up to two minutes.
func DefaultPolicy() Policy {
	return Policy{Attempts: 6, Base: 500 * time.Millisecond, Max: 20 * time.Second, MaxAfter: 2 * time.Minute, Sleep: SleepCtx}
}

// Backoff is the wait before attempt+1 after attempt failed: exponential,
// capped, with jitter in [d/2, d) so that parallel clients spread out.
func (p Policy) Backoff(attempt int) time.Duration {
	d := p.Base
	for i := 1; i < attempt && d < p.Max; i++ {
		d *= 2
	}
	d = min(d, p.Max)
	if d <= 1 {
		return d
	}
	half := d / 2
	return half + rand.N(d-half)
}

// SleepCtx waits d, or returns ctx's error as soon as ctx is done.
func SleepCtx(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// RetryAfter reads how long the server asks a client to wait: the
// "retry-after-ms" header some OpenAI-compatible services send, else
// Retry-After as delay-seconds or an HTTP date (RFC 9110 §10.2.3). ok is
// false when neither is present and valid.
func RetryAfter(h http.Header, now time.Time) (d time.Duration, ok bool) {
	if v := strings.TrimSpace(h.Get("Retry-After-Ms")); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms >= 0 {
			return time.Duration(ms * float64(time.Millisecond)), true
		}
	}
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0, false
	}
	if s, err := strconv.ParseInt(v, 10, 64); err == nil {
		if s < 0 {
			return 0, false
		}
		return time.Duration(s) * time.Second, true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(t.Sub(now), 0), true
	}
	return 0, false
}
