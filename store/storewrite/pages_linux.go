package storewrite

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

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

// dropMappedPages takes this process's mapped pages of the files under
// dir (Badger's log files and tables, which it keeps mapped while open)
// out of its resident set. Pages of a shared file mapping stay in the page
// cache, written ones included (the kernel marks them dirty as it unmaps
// them), and a later access faults them back in from memory: only the
// process's resident set changes. Badger reads and writes its log through
// those mappings, so without this a rewrite of the whole log held every
// log file it read and wrote resident until it closed. A view of the
// index kept in this process (its vector parts map the same log files)
// loses its pages the same way and faults them back in from the cache on
// its next read. Best effort: a mapping it cannot release stays as it was.
func dropMappedPages(dir string) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return
	}
	maps, err := os.ReadFile("/proc/self/maps")
	if err != nil {
		return
	}
	prefix := dir + string(filepath.Separator)
	for line := range strings.Lines(string(maps)) {
		// address perms offset device inode path
		f := strings.Fields(line)
		if len(f) < 6 || len(f[1]) < 4 || f[1][3] != 's' || !strings.HasPrefix(f[5], prefix) {
			continue
		}
		lo, hi, _ := strings.Cut(f[0], "-")
		start, err1 := strconv.ParseUint(lo, 16, 64)
		end, err2 := strconv.ParseUint(hi, 16, 64)
		if err1 != nil || err2 != nil || end <= start {
			continue
		}
		unix.Syscall(unix.SYS_MADVISE, uintptr(start), uintptr(end-start), unix.MADV_DONTNEED)
	}
}
