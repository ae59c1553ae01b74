//go:build unix

package store

import (
	"io/fs"
	"syscall"
)

// Allocated returns the bytes a file occupies on disk.
func Allocated(fi fs.FileInfo) int64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return st.Blocks * 512
	}
	return fi.Size()
}
