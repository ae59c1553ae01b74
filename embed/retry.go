package embed

import (
	"context"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// retryPolicy bounds how a remote embedder retries a request.
type retryPolicy struct {
	attempts int           // total tries, the first included
	base     time.Duration // first backoff; doubled on every further attempt
	max      time.Duration // cap on one backoff
	maxAfter time.Duration // longest Retry-After honoured; longer waits fail at once
	// sleep waits d or until ctx is done; tests replace it to record waits.
	sleep func(ctx context.Context, d time.Duration) error
}

func defaultRetry() retryPolicy {
	return retryPolicy{attempts: 6, base: 500 * time.Millisecond, max: 20 * time.Second, maxAfter: 2 * time.Minute, sleep: sleepCtx}
}

// backoff is the wait before attempt+1 after attempt failed: exponential,
// capped, with jitter in [d/2, d) so that parallel clients spread out.
func (p retryPolicy) backoff(attempt int) time.Duration {
	d := p.base
	for i := 1; i < attempt && d < p.max; i++ {
		d *= 2
	}
	d = min(d, p.max)
	if d <= 1 {
		return d
	}
	half := d / 2
	return half + rand.N(d-half)
}

// sleepCtx waits d, or returns ctx's error as soon as ctx is done.
func sleepCtx(ctx context.Context, d time.Duration) error {
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

// retryAfter reads how long the server asks a client to wait: the
// "retry-after-ms" header some OpenAI-compatible services send, else
// Retry-After as delay-seconds or an HTTP date (RFC 9110 §10.2.3). ok is
// false when neither is present and valid.
func retryAfter(h http.Header, now time.Time) (d time.Duration, ok bool) {
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
