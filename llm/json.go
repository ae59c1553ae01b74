package llm

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/bcindex/bcindex/internal/httpapi"
)

// DecodeJSON reads a reply that was asked for one JSON object into dst and
// runs check on it. Local models often wrap the object in a Markdown fence
// or a sentence; the first object in the text is taken. An answer cut at
// max_tokens, one that is not JSON, has unknown fields or fails check is
// ErrMalformed.
func DecodeJSON(r Reply, dst any, check func() error) error {
	if r.FinishReason == "length" {
		return fmt.Errorf("%w: cut at the token limit (%s)", ErrMalformed, httpapi.Clip(r.Message.Content, 80))
	}
	text := objectText(r.Message.Content)
	if text == "" {
		return fmt.Errorf("%w: no JSON object in %q", ErrMalformed, httpapi.Clip(r.Message.Content, 80))
	}
	dec := json.NewDecoder(strings.NewReader(text))
	dec.DisallowUnknownFields()
	if err := dec.Decode(dst); err != nil {
		return fmt.Errorf("%w: %v in %s", ErrMalformed, err, httpapi.Clip(text, 80))
	}
	if check != nil {
		if err := check(); err != nil {
			return fmt.Errorf("%w: %v", ErrMalformed, err)
		}
	}
	return nil
}

// objectText returns the first balanced {...} of s, strings respected.
func objectText(s string) string {
	start := strings.IndexByte(s, '{')
	if start < 0 {
		return ""
	}
	depth, inStr, esc := 0, false, false
	for i := start; i < len(s); i++ {
		c := s[i]
		switch {
		case esc:
			esc = false
		case inStr && c == '\\':
			esc = true
		case c == '"':
			inStr = !inStr
		case inStr:
		case c == '{':
			depth++
		case c == '}':
			depth--
			if depth == 0 {
				return s[start : i+1]
			}
		}
	}
	return "" // unbalanced: truncated
}
