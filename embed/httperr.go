// HTTP failures of a remote embedder, described without the API key.

package embed

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
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

// parseErrorBody reads OpenAI's {"error":{"message","type","code"}} or
// Ollama's {"error":"..."}; anything else becomes a short excerpt.
func parseErrorBody(body []byte) (code, msg string) {
	var e struct {
		Error json.RawMessage `json:"error"`
	}
	if json.Unmarshal(body, &e) == nil && len(e.Error) > 0 {
		var s string
		if json.Unmarshal(e.Error, &s) == nil {
			return "", clip(s)
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
			return code, clip(o.Message)
		}
	}
	return "", clip(string(body))
}

func clip(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 300 {
		s = truncateUTF8(s, 300) + "…"
	}
	return s
}

// redact removes the API key from a message a server or transport made.
func (r *Remote) redact(s string) string {
	if r.key == "" {
		return s
	}
	return strings.ReplaceAll(s, r.key, "[REDACTED]")
}

func (r *Remote) redactErr(err error) error {
	if r.key == "" || !strings.Contains(err.Error(), r.key) {
		return err
	}
	return errors.New(r.redact(err.Error()))
}
