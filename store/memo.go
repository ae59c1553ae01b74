package store

import "sync"

// memo holds what readers derive from a view, each value built once per
// opening (View.Memo).
type memo struct {
	mu   sync.Mutex
	vals map[any]*memoEntry
}

type memoEntry struct {
	once sync.Once
	val  any
}

// Memo returns the value kept under key, built by build on the first call
// for key since the view was opened (Reopen forgets them): what every
// query on the view would otherwise derive again from the same snapshot
// and listings, such as a table of the snapshot's rows, is built once for
// a view a server keeps open. Callers share the value and must not change
// it; build must not call Memo on the same view. key must be comparable.
func (v *View) Memo(key any, build func() any) any {
	v.memo.mu.Lock()
	if v.memo.vals == nil {
		v.memo.vals = map[any]*memoEntry{}
	}
	e := v.memo.vals[key]
	if e == nil {
		e = &memoEntry{}
		v.memo.vals[key] = e
	}
	v.memo.mu.Unlock()
	e.once.Do(func() { e.val = build() })
	return e.val
}

// forget drops every value Memo kept.
func (m *memo) forget() {
	m.mu.Lock()
	m.vals = nil
	m.mu.Unlock()
}
