//go:build linux

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
		mtime: [2]int64{int64(st.Mtim.Sec), int64(st.Mtim.Nsec)},
		ctime: [2]int64{int64(st.Ctim.Sec), int64(st.Ctim.Nsec)},
		ino:   uint32(st.Ino),
	}, true
}
