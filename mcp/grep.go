package mcp

import (
	"context"
	"errors"
	"fmt"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/bcindex/bcindex/exact"
	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/grep"
	"github.com/bcindex/bcindex/indexing"
	"github.com/bcindex/bcindex/internal/safepath"
	"github.com/bcindex/bcindex/query"
)

type grepIn struct {
	Pattern    string   `json:"pattern" jsonschema:"what to find: an RE2 regular expression (Go regexp syntax), or a fixed string with fixed=true"`
	Fixed      bool     `json:"fixed,omitempty" jsonschema:"pattern is a fixed string, not a regular expression (grep -F)"`
	IgnoreCase bool     `json:"ignore_case,omitempty" jsonschema:"match letters of either case (grep -i)"`
	Word       bool     `json:"word,omitempty" jsonschema:"match whole words only (grep -w)"`
	Rev        string   `json:"rev,omitempty" jsonschema:"revision: branch, tag, SHA, HEAD~3...; default HEAD"`
	Revisions  []string `json:"revisions,omitempty" jsonschema:"several revisions at once, with rev: names or globs over ref names (refs/heads/*, release/*, v1.*); each match names the revisions holding it"`
	Path       string   `json:"path,omitempty" jsonschema:"only files matching this glob, e.g. pkg/**/*.go or *.py; a leading ! leaves matching files out instead (!vendor/**)"`
	MaxMatches int      `json:"max_matches,omitempty" jsonschema:"matching lines to return; default 100, ceiling 1000"`
	Offset     int      `json:"offset,omitempty" jsonschema:"matching lines to skip, to page past earlier ones (the next_offset of a truncated answer)"`
	MaxBytes   int      `json:"max_bytes,omitempty" jsonschema:"byte budget of the whole answer; default 24000, ceiling 200000"`
	NoIndex    bool     `json:"no_index,omitempty" jsonschema:"do not index missing blobs first; the answer is complete anyway (unindexed files are read)"`

	AllBranches bool `json:"all_branches,omitempty" jsonschema:"search every local and remote-tracking branch"`
	Tags        bool `json:"tags,omitempty" jsonschema:"search every tag"`
	AllRefs     bool `json:"all_refs,omitempty" jsonschema:"search every ref"`
}

// grepMatch is one matching line. The field names are those of
// `git bcindex grep --json`.
type grepMatch struct {
	Path  string    `json:"path"`
	Line  int       `json:"line"`
	Text  string    `json:"text" jsonschema:"the line (long lines: a window around the first match, cut ends marked …)"`
	Spans [][2]int  `json:"spans,omitempty" jsonschema:"byte offsets of the matches in text"`
	Blob  string    `json:"blob"`
	Refs  []grepRef `json:"refs" jsonschema:"the searched revisions holding this file"`
}

type grepRef struct {
	Name   string `json:"name"`
	Commit string `json:"commit"`
}

type grepOut struct {
	Rev        string      `json:"rev,omitempty"`
	Commit     string      `json:"commit,omitempty"`
	Revisions  []revOut    `json:"revisions,omitempty" jsonschema:"the revisions searched, when there are several"`
	Matches    []grepMatch `json:"matches"`
	Files      int         `json:"files" jsonschema:"files among the returned matches"`
	Truncated  bool        `json:"truncated" jsonschema:"more matching lines follow; call again with offset=next_offset"`
	NextOffset int         `json:"next_offset,omitempty"`
	NewBlobs   int         `json:"indexed_blobs,omitempty" jsonschema:"blobs indexed by this call before searching"`
	Note       string      `json:"note,omitempty"`
}

func (s *Server) grep(ctx context.Context, req *sdk.CallToolRequest, in grepIn) (*sdk.CallToolResult, grepOut, error) {
	out := grepOut{Matches: []grepMatch{}}
	opts, limit, maxBytes, err := s.grepOptions(in)
	if err != nil {
		return nil, out, err
	}
	want, err := grep.Plan(s.repo, opts)
	if err != nil {
		return nil, out, fmt.Errorf("grep %q: %w", clip(in.Pattern, 100), err)
	}
	v, sum, done, err := s.ensure(ctx, req, in.Rev, indexing.Request{Want: want, Parts: indexing.Exact, NoIndex: in.NoIndex})
	if err != nil {
		return nil, out, fmt.Errorf("grep %q: %w", clip(in.Pattern, 100), err)
	}
	defer done()
	skip, used := in.Offset, 0
	var lastPath, lastBlob string // of the previous match, to count files
	st, err := grep.Grep(ctx, v, opts, func(f *grep.File) error {
		for _, l := range f.Lines {
			if skip > 0 {
				skip--
				continue
			}
			if len(out.Matches) == limit {
				out.Truncated = true
				out.Note = fmt.Sprintf("truncated: more matching lines follow these %d; continue with offset=%d, or narrow with path", limit, in.Offset+limit)
				return grep.ErrStop
			}
			m := newGrepMatch(f, l)
			size := jsonSize(m)
			if used+size > maxBytes && len(out.Matches) > 0 {
				out.Truncated = true
				out.Note = fmt.Sprintf("truncated: the %d-byte budget ran out after %d matching lines; continue with offset=%d, or raise max_bytes (ceiling %d)",
					maxBytes, len(out.Matches), in.Offset+len(out.Matches), searchBytesMax)
				return grep.ErrStop
			}
			used += size
			out.Matches = append(out.Matches, m)
			if m.Path != lastPath || m.Blob != lastBlob {
				out.Files++
				lastPath, lastBlob = m.Path, m.Blob
			}
		}
		return nil
	})
	if err != nil {
		return nil, out, fmt.Errorf("grep %q: %w", clip(in.Pattern, 100), err)
	}
	if out.Truncated {
		out.NextOffset = in.Offset + len(out.Matches)
	}
	if len(st.Revisions) == 1 {
		out.Rev, out.Commit = st.Revisions[0].Rev, st.Revisions[0].Hash.String()
	} else {
		for _, c := range st.Revisions {
			out.Revisions = append(out.Revisions, revOut{c.Rev, c.Hash.String()})
		}
	}
	if sum != nil {
		out.NewBlobs = sum.BlobsNew
	}
	for _, d := range st.Damaged {
		out.Note = joinNote(out.Note, d+"; its blobs were read from git instead")
	}
	if len(out.Matches) == 0 {
		if in.Offset > 0 {
			out.Note = joinNote(out.Note, fmt.Sprintf("no matching lines after offset %d", in.Offset))
		} else {
			out.Note = joinNote(out.Note, "no matching lines: the pattern occurs nowhere in the files searched (binary files are skipped)")
		}
	}
	return text(renderGrep(out)), out, nil
}

// grepOptions checks the arguments and turns them into search options,
// the line limit and the byte budget.
func (s *Server) grepOptions(in grepIn) (grep.Options, int, int, error) {
	var opts grep.Options
	if in.Pattern == "" {
		return opts, 0, 0, errors.New("pattern is required: a regular expression, or a fixed string with fixed=true")
	}
	limit, err := intArg("max_matches", in.MaxMatches, grepMatches, grepMatchesMax)
	if err != nil {
		return opts, 0, 0, err
	}
	if _, err := offsetArg(in.Offset); err != nil {
		return opts, 0, 0, err
	}
	maxBytes, err := intArg("max_bytes", in.MaxBytes, searchBytes, searchBytesMax)
	if err != nil {
		return opts, 0, 0, err
	}
	m, err := exact.Compile([]string{in.Pattern}, exact.Options{Fixed: in.Fixed, IgnoreCase: in.IgnoreCase, Word: in.Word})
	if err != nil {
		var pe *exact.PatternError
		if errors.As(err, &pe) && !in.Fixed {
			return opts, 0, 0, fmt.Errorf("%w\n(set fixed=true to match the pattern as a plain string)", err)
		}
		return opts, 0, 0, err
	}
	opts = grep.Options{Matcher: m, Rev: in.Rev}
	if len(in.Revisions) > 0 || in.AllBranches || in.Tags || in.AllRefs {
		opts.Refs = gitindex.RefSelection{Patterns: in.Revisions, AllBranches: in.AllBranches, Tags: in.Tags, All: in.AllRefs}
		if in.Rev != "" {
			opts.Refs.Patterns = append([]string{in.Rev}, in.Revisions...)
		}
	}
	if err := grepPath(&opts.Paths, in.Path); err != nil {
		return opts, 0, 0, err
	}
	return opts, limit, maxBytes, nil
}

// grepPath adds the path glob under the tools' path rules: relative to the
// repository root, no "..", nothing absolute. The glob only filters the
// revision's own files, so it cannot reach anything else; refusing such
// globs still tells the agent at once why it found nothing.
func grepPath(pf *query.PathFilter, glob string) error {
	g := strings.TrimSpace(glob)
	if g == "" {
		return nil
	}
	body := strings.TrimPrefix(g, "!")
	if _, err := safepath.Clean(body); err != nil {
		return err
	}
	if err := pf.AddGlob(g); err != nil {
		return fmt.Errorf("%v: globs are doublestar patterns like pkg/**/*.go, *.py or !vendor/**", err)
	}
	return nil
}

func renderGrep(o grepOut) string {
	var b strings.Builder
	for _, m := range o.Matches {
		if len(o.Revisions) > 0 {
			names := make([]string, len(m.Refs))
			for i, r := range m.Refs {
				names[i] = r.Name
			}
			b.WriteString(strings.Join(names, ",") + ":")
		}
		fmt.Fprintf(&b, "%s:%d:%s\n", m.Path, m.Line, m.Text)
	}
	where := fmt.Sprintf("at %s (commit %.12s)", o.Rev, o.Commit)
	if len(o.Revisions) > 0 {
		where = fmt.Sprintf("in %d revisions", len(o.Revisions))
	}
	fmt.Fprintf(&b, "[%d matching lines in %d files %s]\n", len(o.Matches), o.Files, where)
	if o.Note != "" {
		b.WriteString("[" + o.Note + "]\n")
	}
	return b.String()
}

// newGrepMatch is one matching line as the grep tool returns it.
func newGrepMatch(f *grep.File, l exact.Line) grepMatch {
	m := grepMatch{Path: f.Path, Line: l.Number, Blob: f.Blob.String()}
	for _, r := range f.Refs {
		m.Refs = append(m.Refs, grepRef{r.Name, r.Commit.String()})
	}
	m.Text, m.Spans = exact.Excerpt(f.Content[l.Start:l.End], l.Spans, grepLineBytes)
	return m
}
