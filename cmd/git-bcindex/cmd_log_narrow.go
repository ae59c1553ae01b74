package main

import (
	"context"
	"io"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"

	"github.com/bcindex/bcindex/pickaxe"
)

// logRoute, when set (by tests), is told how a log -S/-G call was
// answered: "index" with the number of walked commits the index decided
// and the number git's pickaxe checked, or "git" when git answered alone.
var logRoute func(route string, decided, checked int)

// Verdicts on one walked commit.
const (
	commitOut   = iota // not diffed (a merge without --first-parent), or no match
	commitIn           // matches: the index decided
	commitCheck        // may match: git decides
)

// narrowed answers plan from the index and git: git's walk lists the
// commits in git log's order; the change table of HEAD's first-parent
// history and the exact index decide most of them; git's pickaxe decides
// the rest (commits off that history, regexes, renames, paths) in one
// call over those commits alone; git prints the matching ones. done is
// false when the index cannot narrow the call, which git then answers.
func (g gitRunner) narrowed(ctx context.Context, p *logPlan, stdout, stderr io.Writer) (code int, done bool, err error) {
	if !g.onlyRevisions(ctx, p) {
		return 0, false, nil
	}
	gitOnly, untrusted, attributes := g.settings(ctx, p.regex)
	if gitOnly {
		return 0, false, nil
	}
	pat := pickaxe.Pattern{Text: p.pattern, Regex: p.regex, IgnoreCase: p.fold}
	// The index's own pickaxe decides a plain string (counted as git's
	// kwset counts it). A regex RE2 reads as POSIX does, it narrows to the
	// commits its verdicts list, for git to confirm (attributes can make
	// git read a file as binary or as text); any other regex to the
	// commits whose blobs may hold a match, for git to decide.
	trusted := !p.tweaks && !untrusted
	own := trusted && !p.regex && (!p.fold || isASCIIString(p.pattern))
	ownRegex := trusted && p.regex && !p.fold && !attributes && pickaxe.StrictERE(p.pattern)
	if !own && !ownRegex && !pickaxe.Plannable(pat) {
		return 0, false, nil
	}
	commits, ok := g.walk(ctx, p)
	if !ok || len(commits) == 0 {
		return 0, false, nil // git says what is wrong, or lists nothing
	}
	repo, s, err := openLogRepo(g.dir)
	if err != nil {
		return 0, false, nil
	}
	defer repo.Close()
	head, err := repo.Resolve("HEAD")
	if err != nil {
		return 0, false, nil
	}
	hist, err := pickaxe.History(ctx, repo, head.Hash, historyProgress(stderr))
	if err != nil {
		return 0, false, err
	}
	table := make(map[plumbing.Hash]*pickaxe.Commit, len(hist))
	for i := range hist {
		table[hist[i].Hash] = &hist[i]
	}
	model := ""
	if e := s.embedder(); e != nil {
		model = e.ID()
	}
	// Only the matching commits are asked: git prints them.
	opts := pickaxe.Options{Pattern: pat, Grep: p.grep, Text: p.text, CommitsOnly: true}
	cand, release, indexed := pickaxe.OpenCandidates(repo.IndexDir, model, opts)
	defer release()
	if !own && !ownRegex && !indexed {
		return 0, false, nil // every commit would be git's to decide
	}
	// The commits off the first-parent table: the side table's (a
	// history index lists them), or git's to decide.
	var off []plumbing.Hash
	for _, w := range commits {
		if h := plumbing.NewHash(w.hash); table[h] == nil && (w.parents < 2 || p.firstParent) {
			off = append(off, h)
		}
	}
	side, _ := pickaxe.Side(ctx, repo, off, false)
	for h, c := range side {
		table[h] = c
	}
	// With -n, the commits are decided a window at a time, newest first,
	// until enough match: git's -n stops its walk there too.
	verdicts := make([]int, len(commits))
	decided, checked, found := 0, 0, 0
	probe := -1
	for lo, size := 0, len(commits); lo < len(commits); lo, size = lo+size, size*4 {
		if p.hasMax {
			size = max(size, 256)
			if lo == 0 {
				size = 256
			}
		}
		window := commits[lo:min(len(commits), lo+size)]
		v := verdicts[lo : lo+len(window)]
		var matched map[string]bool
		if own || ownRegex {
			var list []pickaxe.Commit
			for _, w := range window {
				if c := table[plumbing.NewHash(w.hash)]; c != nil {
					list = append(list, *c)
				}
			}
			opts.Candidates = cand
			res, _, err := pickaxe.Search(ctx, repo, list, opts)
			if err != nil {
				return 0, false, err
			}
			matched = make(map[string]bool, len(res))
			for _, m := range res {
				matched[m.Commit] = true
			}
		}
		for i, w := range window {
			if w.parents > 1 && !p.firstParent {
				continue // git log diffs no merge without -m
			}
			if probe < 0 {
				probe = lo + i
			}
			c := table[plumbing.NewHash(w.hash)]
			switch {
			case c == nil:
				v[i] = commitCheck
			case own && matched[w.hash]:
				v[i] = commitIn
				if len(p.paths) > 0 || mayPairRenames(c) {
					v[i] = commitCheck
				}
			case ownRegex && matched[w.hash]:
				v[i] = commitCheck
			case !own && !ownRegex && mayChange(c, cand):
				v[i] = commitCheck
			}
		}
		if p.regex && probe >= lo && verdicts[probe] == commitOut {
			// git reads the regex at the first commit it diffs: one
			// commit makes it say what is wrong with it, as it would.
			verdicts[probe] = commitCheck
		}
		for _, x := range v {
			if x == commitCheck {
				checked++
			} else {
				decided++
			}
		}
		if !g.check(ctx, p, window, v) {
			return 0, false, nil
		}
		for _, x := range v {
			if x == commitIn {
				found++
			}
		}
		if p.hasMax && found >= p.max {
			break
		}
	}
	if logRoute != nil {
		logRoute("index", decided, checked)
	}
	var list strings.Builder
	shown := 0
	for i, w := range commits {
		if verdicts[i] == commitIn && (!p.hasMax || shown < p.max) {
			list.WriteString(w.hash + "\n")
			shown++
		}
	}
	if list.Len() == 0 {
		// Nothing matches: git prints nothing, yet reads the options.
		list.WriteString("^" + commits[0].hash + "\n")
	}
	args := append([]string{"--no-walk=unsorted"}, p.finalArgs(p.diffOut)...)
	args = append(args, "--stdin")
	if p.dashdash || len(p.paths) > 0 {
		args = append(append(args, "--"), p.paths...)
	}
	return g.exec(ctx, g.logArgs(args), strings.NewReader(list.String()), stdout, stderr), true, nil
}

// check asks git's pickaxe about the commits marked commitCheck, in one
// call, and marks those it lists commitIn and the others commitOut; false
// when git failed (a regex it refuses): git then answers the whole call.
func (g gitRunner) check(ctx context.Context, p *logPlan, commits []walked, verdicts []int) bool {
	var in strings.Builder
	for i, w := range commits {
		if verdicts[i] == commitCheck {
			in.WriteString(w.hash + "\n")
		}
	}
	if in.Len() == 0 {
		return true
	}
	args := append([]string{"-c", "log.showSignature=false", "log", "--no-walk=unsorted", "--format=%H"}, p.pick...)
	args = append(args, "--stdin")
	if p.dashdash || len(p.paths) > 0 {
		args = append(append(args, "--"), p.paths...)
	}
	out, ok := g.output(ctx, in.String(), args...)
	if !ok {
		return false
	}
	yes := map[string]bool{}
	for _, h := range strings.Fields(out) {
		yes[h] = true
	}
	for i, w := range commits {
		if verdicts[i] == commitCheck {
			verdicts[i] = commitOut
			if yes[w.hash] {
				verdicts[i] = commitIn
			}
		}
	}
	return true
}

// mayPairRenames reports whether git's rename detection may pair two of
// c's changes (it deletes a path and adds one), and so see a match the
// index counted in two files as a move.
func mayPairRenames(c *pickaxe.Commit) bool {
	added, deleted := false, false
	for _, ch := range c.Changes {
		added = added || ch.From.IsZero()
		deleted = deleted || ch.To.IsZero()
	}
	return added && deleted
}

// mayChange reports whether a change of c involves a blob the index says
// may hold a match, or a submodule (whose line git matches too).
func mayChange(c *pickaxe.Commit, cand pickaxe.Candidates) bool {
	for _, ch := range c.Changes {
		if ch.From == ch.To {
			continue
		}
		if ch.FromMode == filemode.Submodule || ch.ToMode == filemode.Submodule ||
			(!ch.From.IsZero() && cand(ch.From)) || (!ch.To.IsZero() && cand(ch.To)) {
			return true
		}
	}
	return false
}

func isASCIIString(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
