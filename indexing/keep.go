package indexing

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"sync"

	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/store"
)

// Keeper keeps the views a long-lived server opens, one per kind of read
// (Parts), open across its requests: while the next request wants the same
// revisions and the index on disk is the one the view opened
// (store.View.Current), and the view was up to date for those parts, the
// request reads the kept view, and what the view memoises (store.View.Memo)
// serves every request, not one. Otherwise it calls Ensure, which indexes
// what is missing and opens the index again, and keeps that view instead.
//
// A kept view is lent to one request at a time: a request that comes
// while another holds it gets a view of its own, which the Keeper keeps
// in its place (the lent one is closed when its request is done). A view with damaged parts is not kept, so
// every request opens the index again and sees the damage or its repair.
// On Windows no view is kept: a mapped file there cannot be removed,
// which would hold up merges and value-log garbage collection for as long
// as the server runs. The zero Keeper calls a nil Ensure; set Ensure
// first.
type Keeper struct {
	Ensure Ensure

	mu     sync.Mutex
	kept   map[Parts]*keptView
	opens  int
	closed bool
}

type keptView struct {
	v    *store.View
	key  string
	lent bool
	drop bool // replaced or closed while lent: closed when returned
}

// View brings the index of r up to date as Ensure does and returns a view
// of it with done, which the caller calls when it has finished reading
// (instead of closing the view). The summary is nil when no indexing run
// ran, as with Ensure.
func (k *Keeper) View(ctx context.Context, repo *gitindex.Repo, r Request) (v *store.View, sum *Summary, done func(), err error) {
	parts, key, keep := keyOf(r)
	if keep {
		k.mu.Lock()
		if kv := k.kept[parts]; kv != nil && !kv.lent {
			if kv.key == key && upToDate(kv.v, parts) && kv.v.Current() {
				kv.lent = true
				k.mu.Unlock()
				return kv.v, nil, func() { k.giveBack(kv) }, nil
			}
			// Stale, or of other revisions: unmapped now, so files that
			// gc or a merge removed are freed while Ensure runs.
			kv.v.Close()
			delete(k.kept, parts)
		}
		k.mu.Unlock()
	}
	v, sum, err = k.Ensure(ctx, repo, r)
	if err != nil {
		return nil, nil, nil, err
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	k.opens++
	if !keep || k.closed || len(v.Damaged) > 0 {
		return v, sum, v.Close, nil
	}
	if old := k.kept[parts]; old != nil {
		if old.lent {
			old.drop = true // closed when its request is done
		} else {
			old.v.Close()
		}
	}
	kv := &keptView{v: v, key: key, lent: true}
	if k.kept == nil {
		k.kept = map[Parts]*keptView{}
	}
	k.kept[parts] = kv
	return v, sum, func() { k.giveBack(kv) }, nil
}

func (k *Keeper) giveBack(kv *keptView) {
	k.mu.Lock()
	defer k.mu.Unlock()
	kv.lent = false
	if kv.drop {
		kv.v.Close()
	}
}

// Opens counts the views Ensure opened for the Keeper so far.
func (k *Keeper) Opens() int {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.opens
}

// Close closes the kept views (one that is lent when it is returned);
// the Keeper keeps no view after it.
func (k *Keeper) Close() {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.closed = true
	for p, kv := range k.kept {
		if kv.lent {
			kv.drop = true
		} else {
			kv.v.Close()
		}
		delete(k.kept, p)
	}
}

// keyOf names what r reads: the parts it reads and the revisions. A
// request for the working tree or a history is not kept: its listing
// changes with every edit, its run with every commit. Nor is any on
// Windows (Keeper).
func keyOf(r Request) (Parts, string, bool) {
	parts := r.Parts
	if r.NoIndex {
		parts = None
	}
	w := r.Want
	if w.Worktree || r.History != nil || len(w.Commits) == 0 || runtime.GOOS == "windows" {
		return parts, "", false
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%t %t %d", w.ByDelta, w.CachedOnly, w.MaxFileSize)
	for _, c := range w.Commits {
		fmt.Fprintf(&b, "\x00%s %s %s", c.Rev, c.Hash, c.Tree)
	}
	return parts, b.String(), true
}

// upToDate reports whether Ensure would index nothing for parts over what
// v holds: every blob is indexed, and for All every chunk has vectors of
// the model. What a None read finds is what it serves.
func upToDate(v *store.View, parts Parts) bool {
	switch parts {
	case None:
		return true
	case All:
		return v.Pending == 0 && (v.Model == "" || v.NoVectors == 0)
	}
	return v.Pending == 0
}
