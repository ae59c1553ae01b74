//go:build unix

package gitindex

import (
	"fmt"
	"io/fs"

	"golang.org/x/sys/unix"
)

// readFileInto reads the file at p into buf, grown if it is too small. A
// query over many refs reads a listing file per ref: the raw calls skip
// what an *os.File costs (its poller registration and finalizer), which
// on small files is as much as the read.
func readFileInto(p string, buf []byte) ([]byte, error) {
	fd, err := unix.Open(p, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: p, Err: err}
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return nil, &fs.PathError{Op: "stat", Path: p, Err: err}
	}
	n := int(st.Size)
	if cap(buf) < n {
		buf = make([]byte, n)
	}
	buf = buf[:n]
	for read := 0; read < n; {
		m, err := unix.Read(fd, buf[read:])
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return nil, &fs.PathError{Op: "read", Path: p, Err: err}
		}
		if m == 0 {
			return nil, fmt.Errorf("read %s: %d of %d bytes", p, read, n)
		}
		read += m
	}
	return buf, nil
}
