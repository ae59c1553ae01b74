package search

import (
	"fmt"
	"strings"

	"github.com/bcindex/bcindex/chunk"
)

// checkFilters refuses a language or kind that no chunk can carry: such a
// filter would match nothing, and an empty answer would not say why.
func checkFilters(lang, kind string) error {
	if lang != "" {
		if known := chunk.Languages(); !chunk.KnownName(known, lang) {
			return fmt.Errorf("%w: --lang %q is not a language bcindex knows; use one of: %s", ErrBadFilter, lang, strings.Join(known, ", "))
		}
	}
	if kind != "" {
		if known := chunk.Kinds(); !chunk.KnownName(known, kind) {
			return fmt.Errorf("%w: --kind %q is not a chunk kind; use one of: %s", ErrBadFilter, kind, strings.Join(known, ", "))
		}
	}
	return nil
}
