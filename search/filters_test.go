package search

import (
	"errors"
	"strings"
	"testing"
)

func TestUnknownFiltersListWhatIsAccepted(t *testing.T) {
	for _, tc := range []struct {
		lang, kind, want string
		lists            []string
	}{
		{"klingon", "", "--lang \"klingon\" is not a language bcindex knows; use one of: ", []string{"go", "python", "markdown", "tsx"}},
		{"", "spaceship", "--kind \"spaceship\" is not a chunk kind; use one of: ", []string{"function", "method", "section"}},
	} {
		err := checkFilters(tc.lang, tc.kind)
		if !errors.Is(err, ErrBadFilter) || !strings.Contains(err.Error(), tc.want) {
			t.Fatalf("checkFilters(%q, %q) = %v, want %s…", tc.lang, tc.kind, err, tc.want)
		}
		for _, accepted := range tc.lists {
			if !strings.Contains(err.Error(), accepted) {
				t.Errorf("the error does not list %q: %v", accepted, err)
			}
		}
	}
	for _, ok := range [][2]string{{"go", "function"}, {"Python", "Class"}, {"text", "window"}, {"", ""}} {
		if err := checkFilters(ok[0], ok[1]); err != nil {
			t.Errorf("checkFilters(%q, %q) = %v, want nil", ok[0], ok[1], err)
		}
	}
}

func TestUnknownLanguageFailsTheSearch(t *testing.T) {
	_, err := NewPlan(nil, Options{Query: "retry", Lang: "klingon"})
	if !errors.Is(err, ErrBadFilter) {
		t.Fatalf("search --lang klingon: %v, want ErrBadFilter", err)
	}
}
