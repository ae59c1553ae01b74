package search

import (
	"fmt"
	"strings"

	"github.com/bcindex/bcindex/chunk/vocab"
	"github.com/bcindex/bcindex/query"
)

// filter is a query's path, language and kind filters, compiled once
// (checkOptions) and read by every listing the view adds and every
// revision a hit is looked up in.
type filter struct {
	paths query.PathFilter
	lang  string
	kinds []string // each allowed kind, trimmed; nil: any
}

// compileFilter checks and compiles the filters of opts.
func compileFilter(opts *Options) (*filter, error) {
	paths, err := query.NewPathFilter(opts.Path, opts.Exclude)
	if err != nil {
		return nil, err
	}
	if err := checkFilters(opts.Lang, opts.Kind); err != nil {
		return nil, err
	}
	return newFilter(opts, paths), nil
}

// compiled is the filters of o: those checkOptions compiled, or compiled
// now for options no one checked.
func (o *Options) compiled() *filter {
	if o.filter == nil {
		paths, _ := query.NewPathFilter(o.Path, o.Exclude)
		o.filter = newFilter(o, paths)
	}
	return o.filter
}

func newFilter(opts *Options, paths query.PathFilter) *filter {
	f := &filter{paths: paths, lang: opts.Lang}
	if opts.Kind != "" {
		for _, k := range strings.Split(opts.Kind, ",") {
			f.kinds = append(f.kinds, strings.TrimSpace(k))
		}
	}
	return f
}

// anyRow reports whether every row of a visible file passes.
func (f *filter) anyRow() bool { return f.lang == "" && f.kinds == nil }

// row reports whether a row of this language and kind passes.
func (f *filter) row(lang, kind string) bool {
	if f.lang != "" && !strings.EqualFold(lang, f.lang) {
		return false
	}
	return f.kinds == nil || kindMatch(kind, f.kinds)
}

// kindMatch reports whether a row's kind is one of kinds.
func kindMatch(kind string, kinds []string) bool {
	for _, k := range kinds {
		if strings.EqualFold(kind, k) {
			return true
		}
	}
	return false
}

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
