//go:build !unix

package store

import "io/fs"

// allocated returns the bytes a file occupies on disk.
func Allocated(fi fs.FileInfo) int64 { return fi.Size() }
