package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// clusterWarnedFile, in the index directory, lists the clusters whose
// set-up warning publish has printed for this repository: the warning is
// about the cluster, and says what to do there; once is enough.
const clusterWarnedFile = "cluster-warned"

// warnOnce prints the warning w about the cluster at url on errw unless
// this repository's publish printed it before, and notes that it did.
func warnOnce(errw io.Writer, indexDir, url, w string) {
	p := filepath.Join(indexDir, clusterWarnedFile)
	seen, _ := os.ReadFile(p)
	for _, line := range bytes.Split(seen, []byte("\n")) {
		if string(line) == url {
			return
		}
	}
	fmt.Fprintln(errw, "warning:", w)
	f, err := os.OpenFile(p, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return // said again next time
	}
	fmt.Fprintln(f, url)
	f.Close()
}
