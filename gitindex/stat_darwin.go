//go:build darwin

package gitindex

import (
	"os"
	"syscall"
)

// fileStat is what git's index records of a file besides its size.
type fileStat struct {
	mtime, ctime [2]int64
	ino          uint32
}

func statOf(fi os.FileInfo) (fileStat, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fileStat{}, false
	}
	return fileStat{
		mtime: [2]int64{int64(st.Mtimespec.Sec), int64(st.Mtimespec.Nsec)},
		ctime: [2]int64{int64(st.Ctimespec.Sec), int64(st.Ctimespec.Nsec)},
		ino:   uint32(st.Ino),
	}, true
}
