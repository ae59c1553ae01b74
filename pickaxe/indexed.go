package pickaxe

import (
	"strings"

	"sync"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/bcindex/bcindex/store"
)

// IndexCandidates returns the Candidates the index in indexDir gives for
// opts' pattern, from its blobs' trigram postings, and a function that
// releases the index. Without an index, or for a pattern the index cannot
// plan, every blob is a candidate: the answer is the same, only slower.
// model is the embedder ID the index is opened with ("" when vectors are
// off). The index is opened at the first question: a search the changes'
// records answer may ask none.
func IndexCandidates(indexDir, model string, opts Options) (Candidates, func()) {
	return SnapshotCandidates(func() (*store.Snapshot, func()) {
		snap, err := store.OpenSnapshot(indexDir, model)
		if err != nil {
			return nil, nil
		}
		return snap, snap.Close
	}, opts)
}

// SnapshotCandidates is IndexCandidates over the snapshot open returns
// (nil: no index) with the function that releases it: a server passes
// the view it keeps across requests. open is called at the first
// question, and not after the release.
func SnapshotCandidates(open func() (*store.Snapshot, func()), opts Options) (Candidates, func()) {
	var (
		once sync.Once
		done func()
		pred func(plumbing.Hash) bool
	)
	first := func() {
		pred = AllBlobs
		m, err := exactMatcher(opts.Pattern)
		if err != nil {
			return
		}
		var snap *store.Snapshot
		if snap, done = open(); snap == nil {
			return
		}
		if opts.Grep && !opts.Text {
			// -G passes binary files over: they need not be read.
			pred = snap.MayContain(m.Query())
		} else {
			pred = snap.MayHold(m.Query())
		}
	}
	cand := func(h plumbing.Hash) bool {
		once.Do(first)
		return pred(h)
	}
	release := func() {
		once.Do(func() {}) // no opening after the release
		if done != nil {
			done()
		}
	}
	return cand, release
}

// Plannable reports whether the exact index can narrow a search for p: its
// trigram plan reads p as the pickaxe does. A regex is planned only when
// written in the part of POSIX ERE that RE2 reads alike (no backslash
// class or escape of a letter or digit, no bracket expression holding a
// backslash or a [: class, no repeated quantifier, no {,n}), in ASCII,
// so that the plan's required literals are the ones git's regex needs.
func Plannable(p Pattern) bool {
	if p.Text == "" || !isASCII(p.Text) {
		return false
	}
	if p.Regex && !portableERE(p.Text) {
		return false
	}
	_, err := exactMatcher(p)
	return err == nil
}

// portableERE reports whether expr keeps to the ERE that RE2 reads as
// POSIX does (see Plannable).
func portableERE(expr string) bool {
	inBracket, prevQuant := false, false
	for i := 0; i < len(expr); i++ {
		c := expr[i]
		if inBracket {
			switch {
			case c == '\\' || c == '[':
				return false
			case c == ']':
				inBracket = false
			}
			continue
		}
		quant := false
		switch c {
		case '\\':
			if i+1 >= len(expr) {
				return false
			}
			n := expr[i+1]
			if 'a' <= n && n <= 'z' || 'A' <= n && n <= 'Z' || '0' <= n && n <= '9' || n == '<' || n == '>' || n == '`' || n == '\'' {
				return false
			}
			i++
		case '[':
			inBracket = true
			if i+1 < len(expr) && expr[i+1] == '^' {
				i++
			}
			if i+1 < len(expr) && expr[i+1] == ']' {
				i++ // a leading ']' is a member
			}
		case '*', '+', '?':
			quant = true
		case '{':
			j := strings.IndexByte(expr[i:], '}')
			if j < 0 || i+1 < len(expr) && expr[i+1] == ',' {
				return false
			}
			i += j
			quant = true
		case '(':
			if i+1 < len(expr) && (expr[i+1] == '?' || expr[i+1] == '*' || expr[i+1] == '+') {
				return false
			}
		}
		if quant && prevQuant {
			return false
		}
		prevQuant = quant
	}
	return !inBracket
}

// OpenCandidates is IndexCandidates opened at once: ok is false when there
// is no index to ask or the index cannot plan opts' pattern (see
// Plannable), and every blob would be a candidate.
func OpenCandidates(indexDir, model string, opts Options) (cand Candidates, release func(), ok bool) {
	if !Plannable(opts.Pattern) {
		return AllBlobs, func() {}, false
	}
	m, err := exactMatcher(opts.Pattern)
	if err != nil {
		return AllBlobs, func() {}, false
	}
	snap, err := store.OpenSnapshot(indexDir, model)
	if err != nil {
		return AllBlobs, func() {}, false
	}
	return snap.MayHold(m.Query()), func() { snap.Close() }, true
}

// StrictERE reports whether a regex reads the same in RE2 and in POSIX ERE
// under any locale, match for match: Plannable's portable ERE in ASCII
// without '.' and negated bracket expressions (which RE2 matches a UTF-8
// character at a time, and a C locale a byte at a time). On such a
// pattern the pickaxe's own verdicts are git's.
func StrictERE(expr string) bool {
	if expr == "" || !isASCII(expr) || !portableERE(expr) {
		return false
	}
	for i := 0; i < len(expr); i++ {
		switch {
		case expr[i] == '\\':
			i++
		case expr[i] == '.', expr[i] == '[' && i+1 < len(expr) && expr[i+1] == '^':
			return false
		}
	}
	return true
}
