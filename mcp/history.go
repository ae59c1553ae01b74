package mcp

import (
	"context"
	"fmt"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/bcindex/bcindex/pickaxe"
	"github.com/bcindex/bcindex/query"
	"github.com/bcindex/bcindex/store"
)

const (
	historyCommits, historyCommitsMax = 20, 1000
	historyFileLines                  = 10 // matching lines shown per file and commit
)

type historyIn struct {
	Pattern    string `json:"pattern" jsonschema:"the exact string (or regex, with regex) whose history to trace, e.g. a function name or an error message"`
	Regex      bool   `json:"regex,omitempty" jsonschema:"pattern is a regular expression in RE2 syntax; default a plain string"`
	Lines      bool   `json:"lines,omitempty" jsonschema:"list commits that added or removed a line matching the pattern (git log -G) rather than commits that changed how many times a file holds it (git log -S, the default)"`
	IgnoreCase bool   `json:"ignore_case,omitempty" jsonschema:"ignore case"`
	Rev        string `json:"rev,omitempty" jsonschema:"whose first-parent history to search: branch, tag, SHA; default HEAD"`
	Path       string `json:"path,omitempty" jsonschema:"only files matching this glob, e.g. pkg/**/*.go or *.py"`
	MaxCommits int    `json:"max_commits,omitempty" jsonschema:"at most this many commits; default 20, ceiling 1000"`
	Oldest     bool   `json:"oldest,omitempty" jsonschema:"oldest commit first; with max_commits 1 this answers when the pattern first appeared"`
	MaxBytes   int    `json:"max_bytes,omitempty" jsonschema:"byte budget of the whole answer; default 24000, ceiling 200000"`
}

type historyOut struct {
	Rev       string                `json:"rev"`
	Commit    string                `json:"commit"`
	Commits   []pickaxe.CommitMatch `json:"commits"`
	Searched  int                   `json:"searched_commits" jsonschema:"first-parent commits of rev looked at"`
	Truncated bool                  `json:"truncated"`
}

// history answers "when did this appear, change, go" exactly: the
// first-parent commits where a file's matches changed, as git log
// --first-parent --no-renames -S/-G lists them.
func (s *Server) history(ctx context.Context, req *sdk.CallToolRequest, in historyIn) (*sdk.CallToolResult, historyOut, error) {
	out := historyOut{Commits: []pickaxe.CommitMatch{}}
	if in.Pattern == "" {
		return nil, out, fmt.Errorf("pattern is required: the exact string (or regex) to trace")
	}
	max, err := intArg("max_commits", in.MaxCommits, historyCommits, historyCommitsMax)
	if err != nil {
		return nil, out, err
	}
	budget, err := intArg("max_bytes", in.MaxBytes, searchBytes, searchBytesMax)
	if err != nil {
		return nil, out, err
	}
	opts := pickaxe.Options{Pattern: pickaxe.Pattern{Text: in.Pattern, Regex: in.Regex, IgnoreCase: in.IgnoreCase},
		Grep: in.Lines, Max: max, Oldest: in.Oldest}
	if in.Path != "" {
		if !doublestar.ValidatePattern(in.Path) {
			return nil, out, fmt.Errorf("path %q is not a valid glob (e.g. pkg/**/*.go)", in.Path)
		}
		glob := in.Path
		opts.PathMatch = func(p string) bool { return query.PathMatches(glob, p) }
	}
	rev := in.Rev
	if rev == "" {
		rev = "HEAD"
	}
	tip, err := s.repo.Resolve(rev)
	if err != nil {
		return nil, out, err
	}
	out.Rev, out.Commit = rev, tip.Hash.String()
	hist, err := pickaxe.History(ctx, s.repo, tip.Hash, nil)
	if err != nil {
		return nil, out, err
	}
	cand, release := pickaxe.SnapshotCandidates(func() (*store.Snapshot, func()) {
		return s.indexed(ctx, req, tip)
	}, opts)
	defer release()
	opts.Candidates = cand
	res, st, err := pickaxe.Search(ctx, s.repo, hist, opts)
	if err != nil {
		return nil, out, err
	}
	out.Searched = st.Commits
	var b strings.Builder
	for _, m := range res {
		block := historyBlock(&m)
		if b.Len()+len(block) > budget {
			out.Truncated = true
			break
		}
		b.WriteString(block)
		out.Commits = append(out.Commits, m)
	}
	if len(res) == 0 {
		b.WriteString(fmt.Sprintf("No commit among the %d first-parent commits of %s changed the matches of %q.\n", st.Commits, rev, in.Pattern))
	} else if out.Truncated {
		fmt.Fprintf(&b, "[truncated at max_bytes %d: %d of %d commits shown; narrow with path or raise max_bytes]\n", budget, len(out.Commits), len(res))
	}
	return text(b.String()), out, nil
}

// historyBlock renders one commit and trims its lines to the per-file cap,
// so that the structured answer and the text agree.
func historyBlock(m *pickaxe.CommitMatch) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s %s: %s\n", m.Commit[:12], m.Date.Format("2006-01-02"), m.Author, m.Subject)
	for i := range m.Files {
		f := &m.Files[i]
		f.Removed = f.Removed[:min(len(f.Removed), historyFileLines)]
		f.Added = f.Added[:min(len(f.Added), historyFileLines-len(f.Removed))]
		fmt.Fprintf(&b, "  %s", f.Path)
		if f.OldCount != f.NewCount {
			fmt.Fprintf(&b, " (%d -> %d)", f.OldCount, f.NewCount)
		}
		b.WriteByte('\n')
		for _, l := range f.Removed {
			fmt.Fprintf(&b, "    -%d: %s\n", l.Number, clip(l.Text, 300))
		}
		for _, l := range f.Added {
			fmt.Fprintf(&b, "    +%d: %s\n", l.Number, clip(l.Text, 300))
		}
	}
	return b.String()
}
