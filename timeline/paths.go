package timeline

import (
	"sort"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/bcindex/bcindex/gitindex"
)

// The history keeps what its commits' listings say as changes, not as
// the listings: each path's blob from the commit it changed on, and each
// commit's changed entries both ways, which is what a timeline asks. A
// history of thousands of commits of thousands of files so holds about
// one entry per change instead of one per file and commit.

// pathState is a path's blob from commit at on; present is false where
// the path has no file to follow (gone, or skipped).
type pathState struct {
	at      int
	blob    plumbing.Hash
	present bool
}

// addListing records commit len(h.fresh)'s listing l; prev is the
// previous commit's listing, nil for the first.
func (h *history) addListing(prev, l *gitindex.Listing) {
	i := len(h.fresh)
	if h.paths == nil {
		h.paths = map[string][]pathState{}
	}
	if prev == nil {
		prev = &gitindex.Listing{}
	}
	h.fresh = append(h.fresh, gitindex.ChangedEntries(prev, l))
	h.gone = append(h.gone, gitindex.ChangedEntries(l, prev))
	a, b := prev.Entries, l.Entries
	set := func(path string, e *gitindex.Entry) {
		st := pathState{at: i}
		if e != nil && e.Skip == gitindex.SkipNone {
			st.blob, st.present = e.Blob, true
		}
		h.paths[path] = append(h.paths[path], st)
	}
	for len(a) > 0 || len(b) > 0 {
		switch {
		case len(b) == 0 || len(a) > 0 && a[0].Path < b[0].Path:
			if a[0].Skip == gitindex.SkipNone {
				set(a[0].Path, nil)
			}
			a = a[1:]
		case len(a) == 0 || b[0].Path < a[0].Path:
			if b[0].Skip == gitindex.SkipNone {
				set(b[0].Path, &b[0])
			}
			b = b[1:]
		default:
			was := a[0].Skip == gitindex.SkipNone
			is := b[0].Skip == gitindex.SkipNone
			if was != is || is && a[0].Blob != b[0].Blob {
				set(b[0].Path, &b[0])
			}
			a, b = a[1:], b[1:]
		}
	}
}

// blobAt returns the blob at path in commit i.
func (h *history) blobAt(i int, path string) (plumbing.Hash, bool) {
	ss := h.paths[path]
	k := sort.Search(len(ss), func(k int) bool { return ss[k].at > i }) - 1
	if k < 0 || !ss[k].present {
		return plumbing.ZeroHash, false
	}
	return ss[k].blob, true
}

// changedEntries is gitindex.ChangedEntries of commit other's listing and
// commit at's, for adjacent commits (the only ones a timeline compares):
// the entries of at that other lacks or holds otherwise.
func (h *history) changedEntries(at, other int) []gitindex.Entry {
	switch {
	case at == other+1:
		return h.fresh[at]
	case other == at+1:
		return h.gone[other]
	}
	return nil
}
