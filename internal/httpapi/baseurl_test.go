package httpapi

import (
	"errors"
	"strings"
	"testing"
)

func TestCleanBaseURL(t *testing.T) {
	cases := []struct {
		in, want string
		err      error
	}{
		{" http://127.0.0.1:11434/v1/ ", "http://127.0.0.1:11434/v1", nil},
		{"https://api.openai.com/v1/chat/completions", "https://api.openai.com/v1", nil},
		{"api.openai.com/v1", "", ErrNotHTTP},
		{"ftp://host/v1", "", ErrNotHTTP},
		{"http://user:secret@host/v1", "", ErrCredentials},
		{"http://host/v1?key=1", "", ErrQuery},
	}
	for _, c := range cases {
		got, err := CleanBaseURL(c.in, "/chat/completions")
		if got != c.want || !errors.Is(err, c.err) || (c.err == nil) != (err == nil) {
			t.Errorf("%q: %q, %v; want %q, %v", c.in, got, err, c.want, c.err)
		}
	}
	if r := Redacted("http://user:secret@host/v1?x"); strings.Contains(r, "secret") {
		t.Errorf("Redacted: %s", r)
	}
}
