package cluster

import (
	"sort"
	"testing"
)

// TestPlanFiles covers the states a killed publish can leave behind.
func TestPlanFiles(t *testing.T) {
	const repo, ref, model = "r", "main", "m"
	hf := func(path, blob string, from, until int64) haveFile {
		return haveFile{id: fileID(repo, ref, model, path, blob), path: path, blob: blob, from: from, until: until}
	}
	// Published generation 3; publishing 4.
	have := []haveFile{
		hf("keep.go", "a", 1, live),  // unchanged
		hf("gone.go", "b", 2, live),  // removed by the new commit
		hf("edit.go", "c1", 1, live), // edited: c1 → c2
		hf("done.go", "d", 4, live),  // written by a killed run of this publication
		hf("stray.go", "e", 4, live), // written by a killed run for another commit
		hf("back.go", "f", 1, 4),     // marked gone by a killed run, but kept now
		hf("old.go", "g", 1, 3),      // invisible since generation 3, not cleaned up
		hf("retired.go", "h", 2, 4),  // already marked gone by a killed run of this publication
		hf("revert.go", "i", 1, 2),   // gone at 2, back in the new commit
	}
	files := []File{{"keep.go", "a"}, {"edit.go", "c2"}, {"done.go", "d"}, {"back.go", "f"}, {"revert.go", "i"}, {"new.go", "j"}}
	p := planFiles(repo, ref, files, have, model, 3, 4)
	paths := func(hs []haveFile) []string {
		var out []string
		for _, h := range hs {
			out = append(out, h.path)
		}
		sort.Strings(out)
		return out
	}
	var put []string
	for _, f := range p.put {
		put = append(put, f.Path)
	}
	sort.Strings(put)
	check := func(what string, got, want []string) {
		t.Helper()
		if len(got) != len(want) {
			t.Errorf("%s = %v, want %v", what, got, want)
			return
		}
		for i := range got {
			if got[i] != want[i] {
				t.Errorf("%s = %v, want %v", what, got, want)
				return
			}
		}
	}
	check("put", put, []string{"edit.go", "new.go", "revert.go"})
	check("revive", paths(p.revive), []string{"back.go"})
	check("retire", paths(p.retire), []string{"edit.go", "gone.go"})
	check("drop", paths(p.drop), []string{"old.go", "stray.go"})
}

func TestIDs(t *testing.T) {
	a, b := ChunkID("m", "00ff"), ChunkID("m", "00ff")
	if a != b || a == ChunkID("m2", "00ff") || a == ChunkID("m", "00fe") {
		t.Fatal("chunk IDs are not a function of (model, hash)")
	}
	if fileID("ab", "c", "m", "p", "b") == fileID("a", "bc", "m", "p", "b") {
		t.Fatal("file IDs run parts together")
	}
	if s := fileSeq(fileID("a", "b", "m", "p", "b")); s < 0 || s >= 1<<52 {
		t.Fatalf("seq %v outside [0, 2^52)", s)
	}
}
