//go:build !linux

package segment

import (
	"fmt"
	"os"
)

// fileIdentity names one version of a file: its size and modification
// time where the change time and inode are not read.
func fileIdentity(p string) string {
	fi, err := os.Stat(p)
	if err != nil {
		return ""
	}
	return fmt.Sprintf("%d:%d", fi.Size(), fi.ModTime().UnixNano())
}
