package storewrite

import (
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// refreshPages makes the page cache hold a vector part as if it had been
// written with write(2). Badger writes its value log through a shared
// memory map, which leaves the file's cached pages in single-page units;
// a query that maps a part made of those faults in and later unmaps every
// 4 KB page alone, which measured about twice the scan time and fifteen
// times the unmapping of a part written with write(2) (large folios). The
// part's pages, clean since Badger synced them, are dropped from the cache
// and the same bytes written back in place: the file's contents never
// change, and a reader mapping them meanwhile keeps its pages. Best
// effort: a failure leaves the part as readable, only slower to map.
func refreshPages(path string, off, n int64) error {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	page := int64(os.Getpagesize())
	st, err := f.Stat()
	if err != nil {
		return err
	}
	lo, hi := off&^(page-1), min(st.Size(), (off+n+page-1)&^(page-1))
	if hi <= lo {
		return nil
	}
	buf := make([]byte, hi-lo)
	if _, err := f.ReadAt(buf, lo); err != nil {
		return fmt.Errorf("read %s: %w", path, err)
	}
	if err := unix.Fadvise(int(f.Fd()), lo, hi-lo, unix.FADV_DONTNEED); err != nil {
		return err
	}
	if _, err := f.WriteAt(buf, lo); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
