package search

import (
	"fmt"
	"strings"

	"github.com/bcindex/bcindex/chunk/vocab"
)

// checkFilters refuses a language or kind that no chunk can carry: such a
// filter would match nothing, and an empty answer would not say why.
func checkFilters(lang, kind string) error {
	if lang != "" {
		if known := vocab.Languages(); !vocab.KnownName(known, lang) {
			return fmt.Errorf("%w: --lang %q is not a language bcindex knows; use one of: %s", ErrBadFilter, lang, strings.Join(known, ", "))
		}
	}
	if kind != "" {
		// A comma-separated list allows any of its kinds.
		for _, k := range strings.Split(kind, ",") {
			if known := vocab.Kinds(); !vocab.KnownName(known, strings.TrimSpace(k)) {
				return fmt.Errorf("%w: --kind %q is not a chunk kind; use one of: %s", ErrBadFilter, k, strings.Join(known, ", "))
			}
		}
	}
	return nil
}
