package chunk

import sitter "github.com/smacker/go-tree-sitter"

// cursors keeps the tree cursors of one walk for reuse. Making a cursor
// allocates it, registers a finalizer and calls into C; a walk lists the
// children of every container and block candidate, so a file made
// thousands. A cursor reset to another node walks it as a new one would.
type cursors struct {
	all  []*sitter.TreeCursor // every cursor made, for close
	free []*sitter.TreeCursor // those no walk is using
}

// at returns a cursor on n; the caller hands it back with done.
func (cs *cursors) at(n *sitter.Node) *sitter.TreeCursor {
	if k := len(cs.free); k > 0 {
		c := cs.free[k-1]
		cs.free = cs.free[:k-1]
		c.Reset(n)
		return c
	}
	c := sitter.NewTreeCursor(n)
	cs.all = append(cs.all, c)
	return c
}

// done makes c available to the next at.
func (cs *cursors) done(c *sitter.TreeCursor) { cs.free = append(cs.free, c) }

// close frees the cursors' C memory.
func (cs *cursors) close() {
	for _, c := range cs.all {
		c.Close()
	}
	cs.all, cs.free = nil, nil
}
