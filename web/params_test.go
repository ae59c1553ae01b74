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

// TestCommitRevParameter: /commit takes the commit from rev, or from ref
// (the revision picker's name) when rev is absent; with neither it answers
// 400 naming rev rather than showing some other commit.
func TestCommitRevParameter(t *testing.T) {
	f := newFixture(t)
	for _, c := range []struct {
		path string
		code int
		want string
	}{
		{"/commit?rev=" + f.commits[1], 200, "slower backoff"},
		{"/commit?ref=" + f.commits[0], 200, "add retry"},
		{"/commit?ref=v1.0", 200, "slower backoff"},
		{"/commit", 400, "name the commit with rev: /commit?rev=REV"},
	} {
		code, body := get(t, f.url+c.path)
		if code != c.code || !strings.Contains(body, c.want) {
			t.Errorf("%s: %d, want %d with %q\n%.400s", c.path, code, c.code, c.want, body)
		}
	}
}
