// HTTP failures of a remote embedder, described without the API key.

package embed

import (
	"errors"
	"fmt"
	"net/http"
)

// httpError is a non-2xx answer that is not retried (any more).
type httpError struct {
	provider string
	url      string
	status   int
	code     string // provider error code or type, e.g. "insufficient_quota"
	msg      string // provider message, API key redacted
	kind     error  // ErrQuota, ErrAuth or nil
}

func (e *httpError) Error() string {
	s := fmt.Sprintf("POST %s: %s", e.url, http.StatusText(e.status))
	if e.status != 0 {
		s = fmt.Sprintf("POST %s: %d %s", e.url, e.status, http.StatusText(e.status))
	}
	if e.code != "" {
		s += " (" + e.code + ")"
	}
	if e.msg != "" {
		s += ": " + e.msg
	}
	switch {
	case errors.Is(e.kind, ErrQuota):
		s += "; the account behind the API key has no quota left: add credit or raise its limits, or choose another bcindex.embedder, then run `git bcindex index` again (unfinished blobs stay pending)"
	case errors.Is(e.kind, ErrAuth):
		s += fmt.Sprintf("; check the API key in the environment variable %s", EnvAPIKey)
		if e.provider == ProviderOpenAI {
			s += " (or " + EnvOpenAIAPIKey + ")"
		}
	case e.status == http.StatusNotFound:
		s += "; check git config bcindex.endpoint (the API base URL) and bcindex.model"
	}
	return s
}

func (e *httpError) Unwrap() error { return e.kind }
