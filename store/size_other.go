//go:build !unix

package store

import "io/fs"

// Allocated returns the bytes a file occupies on disk.
func Allocated(fi fs.FileInfo) int64 { return fi.Size() }
