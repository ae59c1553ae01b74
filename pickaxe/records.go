package pickaxe

import (
	"context"
	"fmt"
	"slices"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"

	"github.com/bcindex/bcindex/exact"
	"github.com/bcindex/bcindex/gitindex"
)

// usesRecords reports whether the search may take its answers from the
// changes' records (record.go), and says why not otherwise. -S may when the
// pattern counts the same in a blob as in its lines: it cannot match
// across a newline, nor match the empty string, nor anchor at the start or
// end of the whole text. -G may when the records were made with the diff
// settings git log would use now (diff.algorithm, diff.indentHeuristic):
// the lines it matches are the ones that diff reports.
func (s *searcher) usesRecords(ctx context.Context, history []Commit) bool {
	s.plan = recordPlan(s.opts.Pattern)
	any := false
	for i := range history {
		if history[i].diffs != nil {
			any = true
			break
		}
	}
	if !any {
		return false
	}
	if !s.opts.Grep {
		return lineLocal(s.m)
	}
	opts := readDiffOptions(ctx, s.repo.CommonDir).String()
	s.recordOpts = func(d *diffsFile) bool { return d.opts == opts }
	return true
}

// recordPlan is the trigram plan records' filters are tested with: nil
// (every record read) when the exact index cannot plan the pattern.
func recordPlan(p Pattern) *exact.Query {
	m, err := exactMatcher(p)
	if err != nil {
		return nil
	}
	return m.Query()
}

// exactMatcher compiles p for the exact index's trigram plan. GNU's \<
// and \>, which the pickaxe reads as \b, are rewritten so first: the
// exact index would read them as the characters < and >.
func exactMatcher(p Pattern) (*exact.Matcher, error) {
	text := p.Text
	if p.Regex {
		text = posixWordAnchors(text)
	}
	return exact.Compile([]string{text}, exact.Options{Fixed: !p.Regex, IgnoreCase: p.IgnoreCase})
}

// searchRecords runs the search oldest commit first, each change decided
// from its record where it has one (its blobs otherwise): -S counts a
// pattern in the lines a change added and removed, the difference being
// what the change did to the blob's count, and keeps each blob's count
// (a blob's count is its old blob's plus that difference) to show them;
// -G matches the lines themselves. The commits are returned newest first,
// or oldest first with opts.Oldest.
func (s *searcher) searchRecords(ctx context.Context, history []Commit) ([]CommitMatch, error) {
	if s.blobChanges(history) <= indexlessReads {
		// Opening the index costs more than the few blobs it could
		// spare: read them.
		s.cand = AllBlobs
	}
	var out []CommitMatch
	for ci := range history {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		c := &history[ci]
		s.stats.Commits++
		var files []FileMatch
		for k, ch := range c.Changes {
			if ch.From == ch.To || (s.opts.PathMatch != nil && !s.opts.PathMatch(ch.Path)) {
				continue
			}
			s.stats.Pairs++
			var fm *FileMatch
			var err error
			if d := c.diffs; d != nil && d.has(c.change0+k) && (s.recordOpts == nil || s.recordOpts(d)) {
				if !d.mayHold(c.change0+k, s.plan) {
					// Neither count nor line changed: the new blob's count
					// is the old one's.
					s.stats.Skipped++
					if n, ok := s.mappedCount(ch.From); ok && !s.opts.Grep {
						s.setCount(ch.To, n)
					}
					continue
				}
				fm, err = s.recordChange(ctx, c, k, ch)
			} else {
				if (ch.From.IsZero() || !s.cand(ch.From)) && (ch.To.IsZero() || !s.cand(ch.To)) {
					s.stats.Skipped++
					continue
				}
				fm, err = s.change(ctx, ch) // which keeps the counts it measures
			}
			if err != nil {
				return nil, fmt.Errorf("pickaxe %s in %s: %w", ch.Path, c.Hash, err)
			}
			if fm != nil {
				files = append(files, *fm)
			}
		}
		if len(files) > 0 {
			out = append(out, CommitMatch{Commit: c.Hash.String(), Date: c.When, Author: c.Author, Subject: c.Subject, Files: files})
			if s.opts.Oldest && s.opts.Max > 0 && len(out) >= s.opts.Max {
				return out, nil
			}
		}
	}
	if !s.opts.Oldest {
		slices.Reverse(out)
	}
	if s.opts.Max > 0 && len(out) > s.opts.Max {
		out = out[:s.opts.Max]
	}
	return out, nil
}

// indexlessReads is how many changes a search from records may decide
// from their blobs without asking the index's candidates: opening the
// index costs about as much as reading a few dozen blobs.
const indexlessReads = 32

// blobChanges counts the changes of history that a search from records
// decides from their blobs, or may: those without a record that applies,
// and, where the pattern counts in binary blobs (-S, -G --text), those of
// binary files whose filter does not rule the pattern out.
func (s *searcher) blobChanges(history []Commit) int {
	n := 0
	for ci := range history {
		c := &history[ci]
		for k, ch := range c.Changes {
			if ch.From == ch.To {
				continue
			}
			d := c.diffs
			if d == nil || !d.has(c.change0+k) || (s.recordOpts != nil && !s.recordOpts(d)) {
				n++
			} else if d.binary(c.change0+k) && (!s.opts.Grep || s.opts.Text) && d.mayHold(c.change0+k, s.plan) {
				n++
			}
		}
	}
	return n
}

// recordChange decides one change of c (its k-th) from its record, or
// from its blobs when it has none that applies.
func (s *searcher) recordChange(ctx context.Context, c *Commit, k int, ch gitindex.FileChange) (*FileMatch, error) {
	rec, ok, err := c.diffs.record(c.change0 + k)
	if err != nil {
		ok = false // a damaged frame: the blobs say the same
	}
	if ok && rec.binary && (!s.opts.Grep || s.opts.Text) {
		ok = false // -S counts in binary blobs, -G --text reads them: no lines here
	}
	if !ok {
		if (ch.From.IsZero() || !s.cand(ch.From)) && (ch.To.IsZero() || !s.cand(ch.To)) {
			s.stats.Skipped++
			return nil, nil
		}
		return s.change(ctx, ch) // which keeps the counts it measures
	}
	s.stats.Records++
	fm := &FileMatch{Path: ch.Path}
	if !ch.From.IsZero() {
		fm.Old = ch.From.String()
	}
	if !ch.To.IsZero() {
		fm.New = ch.To.String()
	}
	if s.opts.Grep {
		if rec.binary {
			return nil, nil // git log -G passes binary files over
		}
		fm.Removed, fm.Added = rec.lines(s.m, false), rec.lines(s.m, true)
		if len(fm.Added) == 0 && len(fm.Removed) == 0 {
			return nil, nil
		}
		return fm, nil
	}
	// The counts first: the lines are shown only where they differ.
	delta := rec.count(s.m, true) - rec.count(s.m, false)
	if delta == 0 {
		// Unchanged; the new blob's count is the old one's, if known.
		if n, known := s.mappedCount(ch.From); known {
			s.setCount(ch.To, n)
		}
		return nil, nil
	}
	old, err := s.countOf(ch.From, ch.FromMode)
	if err != nil {
		return nil, err
	}
	fm.OldCount, fm.NewCount = old, old+delta
	s.setCount(ch.To, fm.NewCount)
	fm.Removed, fm.Added = rec.lines(s.m, false), rec.lines(s.m, true)
	return fm, nil
}

// mappedCount returns a blob's count when the search knows it without
// asking the candidates: none for an absent blob, or kept from an earlier
// change.
func (s *searcher) mappedCount(h plumbing.Hash) (int, bool) {
	if h.IsZero() {
		return 0, true
	}
	s.mu.Lock()
	n, ok := s.counts[h]
	s.mu.Unlock()
	return n, ok
}

// knownCount returns a blob's count when it needs no reading: kept from an
// earlier change, or none when absent or ruled out by the candidates.
func (s *searcher) knownCount(h plumbing.Hash) (int, bool) {
	if n, ok := s.mappedCount(h); ok {
		return n, true
	}
	if !s.cand(h) {
		return 0, true
	}
	return 0, false
}

// countOf returns a blob's count, read from git when it is not known.
func (s *searcher) countOf(h plumbing.Hash, mode filemode.FileMode) (int, error) {
	if n, ok := s.knownCount(h); ok {
		return n, nil
	}
	n, _, err := s.measure(h, mode)
	return n, err
}

// setCount keeps the count of a change's new blob.
func (s *searcher) setCount(h plumbing.Hash, n int) {
	if h.IsZero() {
		return
	}
	s.mu.Lock()
	s.counts[h] = n
	s.mu.Unlock()
}
