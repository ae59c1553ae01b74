// Package memtest reads, for tests, how much of a mapping is resident.
package memtest

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"unsafe"
)

// ResidentKB returns the resident kilobytes of this process's mapping that
// starts at data: its Rss line in /proc/self/smaps. The test is skipped
// where there is no smaps (not Linux).
func ResidentKB(t testing.TB, data []byte) int {
	t.Helper()
	smaps, err := os.ReadFile("/proc/self/smaps")
	if err != nil {
		t.Skipf("no smaps: %v", err)
	}
	start := fmt.Sprintf("%x-", uintptr(unsafe.Pointer(&data[0])))
	in := false
	for line := range strings.Lines(string(smaps)) {
		if f := strings.Fields(line); len(f) > 0 && strings.Contains(f[0], "-") && !strings.HasSuffix(f[0], ":") {
			in = strings.HasPrefix(f[0], start)
			continue
		}
		if in && strings.HasPrefix(line, "Rss:") {
			kb, err := strconv.Atoi(strings.Fields(line)[1])
			if err != nil {
				t.Fatalf("smaps Rss line %q: %v", line, err)
			}
			return kb
		}
	}
	t.Fatalf("no mapping at %s in smaps", start)
	return 0
}
