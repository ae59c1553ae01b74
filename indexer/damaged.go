package indexer

import (
	"strings"

	"github.com/bcindex/bcindex/store"
)

// dropDamaged takes the snapshot's damaged segments out of m, which this
// run publishes: their blobs are missing from the snapshot, so the run
// indexes them again, and their directories are removed as orphans.
func dropDamaged(m *store.Manifest, snap *store.Snapshot, sum *Summary) {
	if len(snap.Damaged) == 0 {
		return
	}
	bad := map[string]bool{}
	var lines []string
	for _, d := range snap.Damaged {
		bad[d.ID] = true
		lines = append(lines, d.String())
	}
	kept := make([]string, 0, len(m.Segments))
	for _, id := range m.Segments {
		if !bad[id] {
			kept = append(kept, id)
		}
	}
	m.Segments = kept
	line := strings.Join(lines, "; ") + "; set aside, its blobs indexed again"
	if sum.Repaired != "" {
		line = sum.Repaired + "; " + line
	}
	sum.Repaired = line
}
