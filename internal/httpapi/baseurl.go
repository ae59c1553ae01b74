package httpapi

import (
	"errors"
	"net/url"
	"strings"
)

// Mistakes in a configured base URL, for the caller to explain with the
// configuration key and an example.
var (
	ErrNotHTTP     = errors.New("not an http or https URL")
	ErrCredentials = errors.New("the URL holds credentials")
	ErrQuery       = errors.New("the URL has a query or fragment")
)

// CleanBaseURL validates a service's base URL and drops a trailing slash
// and any of suffixes (an API path pasted with it, such as "/embeddings").
// The error's text never holds the URL's password.
func CleanBaseURL(raw string, suffixes ...string) (string, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", ErrNotHTTP
	}
	if u.User != nil {
		return "", ErrCredentials
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return "", ErrQuery
	}
	s := strings.TrimRight(u.String(), "/")
	for _, suffix := range suffixes {
		s = strings.TrimSuffix(s, suffix)
	}
	return s, nil
}

// Redacted returns raw with any password masked, for messages.
func Redacted(raw string) string {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		return raw
	}
	return u.Redacted()
}
