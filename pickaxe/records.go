package pickaxe

import (
	"context"
	"fmt"
	"runtime"
	"slices"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"golang.org/x/sync/errgroup"

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
	for lo := 0; lo < len(history); lo += recordWindow {
		window := history[lo:min(len(history), lo+recordWindow)]
		verdicts, err := s.readRecords(ctx, window)
		if err != nil {
			return nil, err
		}
		for ci := range window {
			c := &window[ci]
			s.stats.Commits++
			var files []FileMatch
			for k, ch := range c.Changes {
				fm, err := s.settle(ctx, ch, verdicts[ci][k])
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
	}
	if !s.opts.Oldest {
		slices.Reverse(out)
	}
	if s.opts.Max > 0 && len(out) > s.opts.Max {
		out = out[:s.opts.Max]
	}
	return out, nil
}

// recordWindow is how many commits a search from records reads at once,
// their records spread over the cores; a search that stops at its first
// match reads at most this many commits more than it needs.
const recordWindow = 512

// verdict is what a change's record says, read before the counts are
// chained through the history.
type verdict struct {
	kind           verdictKind
	delta          int    // -S: the count's change
	removed, added []Line // the matching lines (-G; -S where delta is not 0)
	binary         bool   // -G: a binary file's record, passed over
}

type verdictKind uint8

const (
	vNone    verdictKind = iota // not looked at: a mode change, another path
	vBlobs                      // no record applies: the blobs decide
	vSkipped                    // the record's filter rules the pattern out
	vRecord                     // the record decides
)

// readRecords reads the records of the changes of commits, split between
// the cores, each part's frames decoded once, and returns per commit and
// change what they say.
func (s *searcher) readRecords(ctx context.Context, commits []Commit) ([][]verdict, error) {
	out := make([][]verdict, len(commits))
	for ci := range commits {
		out[ci] = make([]verdict, len(commits[ci].Changes))
	}
	parts := min(runtime.GOMAXPROCS(0), len(commits))
	g, ctx := errgroup.WithContext(ctx)
	for p := range parts {
		lo, hi := p*len(commits)/parts, (p+1)*len(commits)/parts
		g.Go(func() error {
			var fr frameReader
			defer fr.close()
			for ci := lo; ci < hi; ci++ {
				if err := ctx.Err(); err != nil {
					return err
				}
				c := &commits[ci]
				for k := range c.Changes {
					out[ci][k] = s.verdict(&fr, c, k)
				}
			}
			return nil
		})
	}
	return out, g.Wait()
}

// verdict reads what the k-th change of c's record says.
func (s *searcher) verdict(fr *frameReader, c *Commit, k int) verdict {
	ch := c.Changes[k]
	if ch.From == ch.To || (s.opts.PathMatch != nil && !s.opts.PathMatch(ch.Path)) {
		return verdict{}
	}
	d, i := c.diffs, c.change0+k
	if d == nil || !d.has(i) || (s.recordOpts != nil && !s.recordOpts(d)) {
		return verdict{kind: vBlobs}
	}
	if !d.mayHold(i, s.plan) {
		return verdict{kind: vSkipped}
	}
	rec, ok, err := fr.record(d, i)
	if err != nil || !ok {
		return verdict{kind: vBlobs} // a damaged frame: the blobs say the same
	}
	if rec.binary && (!s.opts.Grep || s.opts.Text) {
		return verdict{kind: vBlobs} // -S counts in binary blobs, -G --text reads them: no lines here
	}
	v := verdict{kind: vRecord}
	if s.opts.Grep {
		if v.binary = rec.binary; !v.binary {
			v.removed, v.added = rec.lines(s.m, false), rec.lines(s.m, true)
		}
		return v
	}
	// The counts first: the lines are shown only where they differ.
	if v.delta = rec.count(s.m, true) - rec.count(s.m, false); v.delta != 0 {
		v.removed, v.added = rec.lines(s.m, false), rec.lines(s.m, true)
	}
	return v
}

// settle decides one change from its verdict, oldest change first: -S
// chains each blob's count from the old blob's (a blob's count is its old
// blob's plus the change's delta), reading blobs only where the chain is
// broken or no record applies.
func (s *searcher) settle(ctx context.Context, ch gitindex.FileChange, v verdict) (*FileMatch, error) {
	switch v.kind {
	case vNone:
		return nil, nil
	case vBlobs:
		s.stats.Pairs++
		if (ch.From.IsZero() || !s.cand(ch.From)) && (ch.To.IsZero() || !s.cand(ch.To)) {
			s.stats.Skipped++
			return nil, nil
		}
		return s.change(ctx, ch) // which keeps the counts it measures
	case vSkipped:
		// Neither count nor line changed: the new blob's count is the
		// old one's.
		s.stats.Pairs++
		s.stats.Skipped++
		if n, ok := s.mappedCount(ch.From); ok && !s.opts.Grep {
			s.setCount(ch.To, n)
		}
		return nil, nil
	}
	s.stats.Pairs++
	s.stats.Records++
	fm := &FileMatch{Path: ch.Path}
	if !ch.From.IsZero() {
		fm.Old = ch.From.String()
	}
	if !ch.To.IsZero() {
		fm.New = ch.To.String()
	}
	if s.opts.Grep {
		// git log -G passes binary files over.
		if v.binary || len(v.added) == 0 && len(v.removed) == 0 {
			return nil, nil
		}
		fm.Removed, fm.Added = v.removed, v.added
		return fm, nil
	}
	if v.delta == 0 {
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
	fm.OldCount, fm.NewCount = old, old+v.delta
	s.setCount(ch.To, fm.NewCount)
	fm.Removed, fm.Added = v.removed, v.added
	return fm, nil
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
