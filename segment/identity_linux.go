//go:build linux

package segment

import (
	"fmt"

	"golang.org/x/sys/unix"
)

// fileIdentity names one version of a file.
func fileIdentity(p string) string {
	var st unix.Stat_t
	if unix.Stat(p, &st) != nil {
		return ""
	}
	return fmt.Sprintf("%d:%d:%d:%d.%d:%d.%d", st.Dev, st.Ino, st.Size, st.Mtim.Sec, st.Mtim.Nsec, st.Ctim.Sec, st.Ctim.Nsec)
}
