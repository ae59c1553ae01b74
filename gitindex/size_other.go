//go:build !unix

package gitindex

import "io/fs"

// allocated returns the bytes a file occupies on disk.
func allocated(fi fs.FileInfo) int64 { return fi.Size() }
