package gitindex

import (
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
)

// ErrNoRefMatch is returned when a ref glob names no reference.
var ErrNoRefMatch = errors.New("no ref matches")

// RefSelection names several revisions at once: revisions and globs over
// ref names, and whole groups of references.
type RefSelection struct {
	// Patterns are revisions (main, v1.2, HEAD~3, a SHA) or globs over ref
	// names (refs/heads/*, release/*, v1.*). A glob beginning with refs/ is
	// matched against full names, any other against the short names of
	// branches, remote-tracking branches and tags (main, origin/main,
	// v1.2); * and ? match any characters, slashes included, as in git
	// for-each-ref.
	Patterns    []string
	AllBranches bool // local and remote-tracking branches
	Tags        bool
	All         bool // every reference, and HEAD when it is detached
}

// Empty reports whether the selection names nothing.
func (s RefSelection) Empty() bool {
	return len(s.Patterns) == 0 && !s.AllBranches && !s.Tags && !s.All
}

// Revision is one revision of a selection: the name to show and the
// revision to resolve.
type Revision struct {
	Name string // short ref name where unambiguous, else the full name or the revision as given
	Rev  string // what Resolve takes: a full ref name, or the revision as given
	// Target is the object the ref named when the refs were listed (zero
	// for a revision as given): see Repo.ResolveRevision.
	Target plumbing.Hash
}

// IsRefGlob reports whether a revision is a glob over ref names rather than
// a revision: it holds *, ? or [ (characters no ref name may hold).
func IsRefGlob(rev string) bool { return strings.ContainsAny(rev, "*?[") }

// namedRef is a reference that names a commit (or a tag of one).
type namedRef struct {
	full, short string
	group       int // group*
	target      plumbing.Hash
}

const (
	groupBranch = iota
	groupRemote
	groupTag
	groupOther
)

// ExpandRefs turns a selection into revisions, in the order asked, each
// once: a glob's matches and a group's members in ref order (branches,
// then remote-tracking branches, then tags newest version first). A glob
// that matches nothing is an error; revisions are not resolved here.
func (r *Repo) ExpandRefs(sel RefSelection) ([]Revision, error) {
	var refs []namedRef
	needRefs := sel.AllBranches || sel.Tags || sel.All
	for _, p := range sel.Patterns {
		needRefs = needRefs || IsRefGlob(p)
	}
	if needRefs {
		var err error
		if refs, err = r.namedRefs(); err != nil {
			return nil, err
		}
	}
	var out []Revision
	seen := map[string]bool{}
	add := func(rv Revision) {
		if !seen[rv.Rev] {
			seen[rv.Rev] = true
			out = append(out, rv)
		}
	}
	addRefs := func(keep func(namedRef) bool) int {
		n := 0
		for _, nr := range refs {
			if keep(nr) {
				add(Revision{Name: nr.short, Rev: nr.full, Target: nr.target})
				n++
			}
		}
		return n
	}
	for _, p := range sel.Patterns {
		if !IsRefGlob(p) {
			add(Revision{Name: p, Rev: p})
			continue
		}
		re, err := refGlob(p)
		if err != nil {
			return nil, err
		}
		full := strings.HasPrefix(p, "refs/")
		if addRefs(func(nr namedRef) bool {
			if full {
				return re.MatchString(nr.full)
			}
			return nr.group != groupOther && re.MatchString(nr.short)
		}) == 0 {
			return nil, fmt.Errorf("%w %q", ErrNoRefMatch, p)
		}
	}
	if sel.AllBranches || sel.All {
		addRefs(func(nr namedRef) bool { return nr.group == groupBranch || nr.group == groupRemote })
	}
	if sel.Tags || sel.All {
		addRefs(func(nr namedRef) bool { return nr.group == groupTag })
	}
	if sel.All {
		addRefs(func(nr namedRef) bool { return nr.group == groupOther })
		if head, err := r.Git.Storer.Reference(plumbing.HEAD); err == nil && head.Type() == plumbing.HashReference {
			add(Revision{Name: "HEAD", Rev: "HEAD"}) // detached: a commit no ref names
		}
	}
	disambiguate(out, refs)
	return out, nil
}

// namedRefs lists the references that may name commits, sorted by group
// and name. Symbolic refs (origin/HEAD) are left out: they repeat the ref
// they point to. bcindex's own refs and notes are no code of the project.
func (r *Repo) namedRefs() ([]namedRef, error) {
	iter, err := r.Git.Storer.IterReferences()
	if err != nil {
		return nil, fmt.Errorf("list refs: %w", err)
	}
	var out []namedRef
	err = iter.ForEach(func(ref *plumbing.Reference) error {
		if ref.Type() != plumbing.HashReference {
			return nil
		}
		name := ref.Name().String()
		nr := namedRef{full: name, short: name, group: groupOther, target: ref.Hash()}
		switch {
		case strings.HasPrefix(name, "refs/heads/"):
			nr.short, nr.group = strings.TrimPrefix(name, "refs/heads/"), groupBranch
		case strings.HasPrefix(name, "refs/remotes/"):
			nr.short, nr.group = strings.TrimPrefix(name, "refs/remotes/"), groupRemote
		case strings.HasPrefix(name, "refs/tags/"):
			nr.short, nr.group = strings.TrimPrefix(name, "refs/tags/"), groupTag
		case strings.HasPrefix(name, "refs/bcindex/"), strings.HasPrefix(name, "refs/notes/"), !strings.HasPrefix(name, "refs/"):
			return nil
		}
		out = append(out, nr)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("list refs: %w", err)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.group != b.group {
			return a.group < b.group
		}
		if a.group == groupTag {
			return versionLess(b.short, a.short) // newest release first
		}
		return a.short < b.short
	})
	return out, nil
}

// disambiguate names a revision by its full ref name when another ref
// (a branch and a tag both called v1, say) has the same short name.
func disambiguate(revs []Revision, refs []namedRef) {
	count := map[string]int{}
	for _, nr := range refs {
		count[nr.short]++
	}
	for i, rv := range revs {
		if strings.HasPrefix(rv.Rev, "refs/") && count[rv.Name] > 1 {
			revs[i].Name = rv.Rev
		}
	}
}

// refGlob compiles a glob over ref names (see Glob).
func refGlob(p string) (*regexp.Regexp, error) {
	re, err := Glob(p)
	if err != nil {
		return nil, fmt.Errorf("ref %w", err)
	}
	return re, nil
}

// Glob compiles a glob as git matches ref names and pathspecs (wildmatch
// without the pathname flag): * and ? match any characters, slashes too,
// [...] a class ([!...] negated), everything else itself.
func Glob(p string) (*regexp.Regexp, error) {
	var b strings.Builder
	b.WriteString("^")
	for i := 0; i < len(p); i++ {
		switch c := p[i]; c {
		case '*':
			b.WriteString(".*")
		case '?':
			b.WriteString(".")
		case '[':
			j := strings.IndexByte(p[i+1:], ']')
			if j < 0 {
				return nil, fmt.Errorf("glob %q: unclosed [", p)
			}
			class := p[i+1 : i+1+j]
			if strings.HasPrefix(class, "!") {
				class = "^" + class[1:]
			}
			b.WriteString("[" + class + "]")
			i += j + 1
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	b.WriteString("$")
	re, err := regexp.Compile(b.String())
	if err != nil {
		return nil, fmt.Errorf("glob %q: %w", p, err)
	}
	return re, nil
}

// versionLess orders names with their digit runs compared as numbers, so
// that v1.10 comes after v1.9.
func versionLess(a, b string) bool {
	for a != "" && b != "" {
		da, db := isDigit(a[0]), isDigit(b[0])
		if da && db {
			na, ra := digitRun(a)
			nb, rb := digitRun(b)
			if len(na) != len(nb) {
				return len(na) < len(nb)
			}
			if na != nb {
				return na < nb
			}
			a, b = ra, rb
			continue
		}
		if a[0] != b[0] {
			return a[0] < b[0]
		}
		a, b = a[1:], b[1:]
	}
	return len(a) < len(b)
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// digitRun splits a leading run of digits, without leading zeros, from s.
func digitRun(s string) (run, rest string) {
	i := 0
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	return strings.TrimLeft(s[:i], "0"), s[i:]
}
