package weaviatetest

import (
	"os"
	"path/filepath"
	"testing"
)

// Ports are handed out once, free, below the ephemeral range, and pairs
// have their next port free too.
func TestPickPorts(t *testing.T) {
	lo, hi := lowRange()
	seen := map[int]bool{}
	for i := 0; i < 50; i++ {
		p, err := pickPorts(i%2 == 0)
		if err != nil {
			t.Fatal(err)
		}
		if p < lo || p+1 >= hi || seen[p] || seen[p+1] && i%2 == 0 {
			t.Fatalf("port %d (range %d..%d) handed out again or out of range", p, lo, hi)
		}
		seen[p] = true
		if i%2 == 0 {
			seen[p+1] = true
		}
	}
}

// A node's log says its own port was taken only when it names one of its
// ports; the profiling port every node tries does not count.
func TestPortTaken(t *testing.T) {
	nd := &Node{log: filepath.Join(t.TempDir(), "log"), own: []int{24006, 24005}}
	for _, tc := range []struct {
		line string
		want bool
	}{
		{`{"level":"error","msg":"error listinening and serve :6060 : %wlisten tcp :6060: bind: address already in use"}`, false},
		{`{"level":"fatal","msg":"listen tcp 127.0.0.1:24005: bind: address already in use"}`, true},
		{`{"level":"info","msg":"serving on 127.0.0.1:24006"}`, false},
	} {
		if err := os.WriteFile(nd.log, []byte(tc.line+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if got := nd.portTaken(); got != tc.want {
			t.Errorf("%s: portTaken %v, want %v", tc.line, got, tc.want)
		}
	}
}
