package indexer

import (
	"github.com/bcindex/bcindex/store/storewrite"
)

// A part of a merged segment that a live segment still shares keeps the
// merged segment's other vectors, dead (sharevec.go). A run's end rewrites
// such parts without them (storewrite.CompactParts) before it tidies the
// log, which then finds the old parts' bytes dead and reclaims them; gc
// does the same on every run.

// compactFloor is how many bytes of dead vectors the live segments' parts
// must hold before a run's end rewrites them: a quarter of the log's tidy
// floor (one 16 MB part at 256 dimensions). The last run of a history
// index takes any above a sixty-fourth of it (1 MB), as its tidy then
// takes any dead log bytes past the floor.
func compactFloor(reclaim bool) int64 {
	if reclaim {
		return storewrite.TidyFloor / 64
	}
	return storewrite.TidyFloor / 4
}

// compactVectors rewrites the parts the live segments ids name without
// their dead vectors when they hold more than compactFloor of them. It is
// best effort, like the tidy after it: a part left whole answers the same.
// It reports whether it rewrote any part.
func (ix *Indexer) compactVectors(ids []string) bool {
	c, err := storewrite.CompactVectors(ix.repo.IndexDir, ids, compactFloor(ix.reclaimLog))
	return err == nil && c.Parts > 0
}
