package httpapi

import (
	"net/http"
	"testing"
	"time"
)

// Retry-After as seconds or a date, and the millisecond header some
// OpenAI-compatible services send.
func TestRetryAfterParsing(t *testing.T) {
	now := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	cases := []struct {
		h    map[string]string
		want time.Duration
		ok   bool
	}{
		{map[string]string{"Retry-After": "12"}, 12 * time.Second, true},
		{map[string]string{"Retry-After": "0"}, 0, true},
		{map[string]string{"Retry-After": now.Add(90 * time.Second).Format(http.TimeFormat)}, 90 * time.Second, true},
		{map[string]string{"Retry-After": now.Add(-time.Hour).Format(http.TimeFormat)}, 0, true},
		{map[string]string{"Retry-After-Ms": "250", "Retry-After": "9"}, 250 * time.Millisecond, true},
		{map[string]string{"Retry-After": "soon"}, 0, false},
		{map[string]string{"Retry-After": "-3"}, 0, false},
		{map[string]string{}, 0, false},
	}
	for _, c := range cases {
		h := http.Header{}
		for k, v := range c.h {
			h.Set(k, v)
		}
		d, ok := RetryAfter(h, now)
		if d != c.want || ok != c.ok {
			t.Errorf("%v: %v %v, want %v %v", c.h, d, ok, c.want, c.ok)
		}
	}
}

func TestBackoffBounds(t *testing.T) {
	p := DefaultPolicy()
	for attempt := 1; attempt <= 10; attempt++ {
		want := min(p.Base<<(attempt-1), p.Max)
		for range 50 {
			d := p.Backoff(attempt)
			if d < want/2 || d >= want {
				t.Fatalf("attempt %d: %v outside [%v, %v)", attempt, d, want/2, want)
			}
		}
	}
}
