//go:build linux || darwin

package gitindex

import (
	"path"
	"path/filepath"
	"sync"

	"golang.org/x/sys/unix"
)

// statFiles reads the status of files (paths from top, in path order),
// without following symlinks, calling each(i, st, ok) from several
// goroutines. Files of one directory are read relative to that
// directory, opened once, so that the kernel walks one name a file
// instead of the whole path (git grep's own reading of the working tree
// costs that walk per file). golang.org/x/sys/unix names the times of
// Linux's and Darwin's Stat_t alike (Mtim, Ctim), unlike syscall's
// Mtimespec on Darwin.
func statFiles(top string, files []string, each func(i int, st fileStat, ok bool)) {
	type run struct{ lo, hi int }
	var runs []run
	for i := 0; i < len(files); {
		dir := path.Dir(files[i])
		j := i + 1
		for j < len(files) && path.Dir(files[j]) == dir {
			j++
		}
		runs = append(runs, run{i, j})
		i = j
	}
	const workers = 8
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := w; k < len(runs); k += workers {
				r := runs[k]
				dir := filepath.Join(top, filepath.FromSlash(path.Dir(files[r.lo])))
				fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
				if err != nil {
					for i := r.lo; i < r.hi; i++ {
						each(i, fileStat{}, false)
					}
					continue
				}
				for i := r.lo; i < r.hi; i++ {
					var st unix.Stat_t
					if unix.Fstatat(fd, path.Base(files[i]), &st, unix.AT_SYMLINK_NOFOLLOW) != nil {
						each(i, fileStat{}, false)
						continue
					}
					each(i, fileStat{
						regular: st.Mode&unix.S_IFMT == unix.S_IFREG,
						size:    st.Size,
						mtime:   [2]int64{int64(st.Mtim.Sec), int64(st.Mtim.Nsec)},
						ctime:   [2]int64{int64(st.Ctim.Sec), int64(st.Ctim.Nsec)},
						ino:     uint32(st.Ino),
					}, true)
				}
				unix.Close(fd)
			}
		}()
	}
	wg.Wait()
}
