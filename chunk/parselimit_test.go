package chunk

import (
	"strings"
	"testing"
)

// TestLoopingGrammarGivesUp: the Swift grammar loops forever on these bytes
// (found by FuzzSplit). The parse stops at its time limit, the file is split
// into line windows, and the pooled parser parses the next file as usual.
func TestLoopingGrammarGivesUp(t *testing.T) {
	src := []byte("import n\n//Avehicle\nprotocol Vehicle{funcdrive(}//\ninit(speedInt){selfspeed=")
	f := Split("f.swift", src)
	if !f.Fallback || len(f.Chunks) < 2 || !strings.Contains(string(src[f.Chunks[1].StartByte:f.Chunks[1].EndByte]), "protocol Vehicle") {
		t.Fatalf("looping parse: fallback %v, chunks %+v", f.Fallback, f.Chunks)
	}
	checkInvariants(t, src, f)
	for range 2 { // the pooled parser, as a worker's next file gets it
		g := Split("g.swift", []byte("struct Point {\n  var x: Int\n}\n\nfunc area(p: Point) -> Int {\n  return p.x * p.x\n}\n"))
		if g.Fallback || len(g.Chunks) < 3 || g.Chunks[2].Name != "area" {
			t.Fatalf("parse after a given-up one: fallback %v, chunks %+v", g.Fallback, g.Chunks)
		}
	}
}
