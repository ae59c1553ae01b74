package web

import (
	"strings"
	"testing"
)

// TestBadParameters: a parameter out of range gets a 400 page saying what
// is wrong with it, never the default in its place.
func TestBadParameters(t *testing.T) {
	f := newFixture(t)
	for _, c := range []struct{ path, reason string }{
		{"/?q=backoff&k=1000", `k=&#34;1000&#34;: the number of hits must be a whole number from 1 to 200`},
		{"/?q=backoff&k=abc", `k=&#34;abc&#34;`},
		{"/?q=backoff&k=-5", `k=&#34;-5&#34;`},
		{"/log?q=backoff&k=0", `k=&#34;0&#34;`},
		{"/file?ref=HEAD&path=net/retry.go&lines=x", `lines=&#34;x&#34;: give a line or a range`},
	} {
		code, body := get(t, f.url+c.path)
		if code != 400 || !strings.Contains(body, c.reason) {
			t.Errorf("%s: %d, want 400 with %q\n%s", c.path, code, c.reason, body)
		}
	}
	if code, body := get(t, f.url+"/?q=backoff&k=200"); code != 200 {
		t.Errorf("k=200: %d\n%s", code, body)
	}
}
