//go:build !(linux || darwin || freebsd)

package chunk

import "time"

// threadCPU reports that the CPU time of a thread is not known here: a
// parse is then bounded by the clock alone.
func threadCPU() (time.Duration, bool) { return 0, false }
