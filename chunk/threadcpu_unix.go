//go:build linux || darwin || freebsd

package chunk

import (
	"time"

	"golang.org/x/sys/unix"
)

// threadCPU returns the CPU time the calling OS thread has used; ok is
// false when the system does not tell. The caller locks its goroutine to
// the thread.
func threadCPU() (d time.Duration, ok bool) {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		return 0, false
	}
	return time.Duration(ts.Nano()), true
}
