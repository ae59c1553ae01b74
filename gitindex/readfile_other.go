//go:build !unix

package gitindex

import (
	"fmt"
	"io"
	"os"
)

// readFileInto reads the file at p into buf, grown if it is too small.
func readFileInto(p string, buf []byte) ([]byte, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	n := int(fi.Size())
	if cap(buf) < n {
		buf = make([]byte, n)
	}
	buf = buf[:n]
	if _, err := io.ReadFull(f, buf); err != nil {
		return nil, fmt.Errorf("read %s: %w", p, err)
	}
	return buf, nil
}
