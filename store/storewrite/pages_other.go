//go:build !linux

package storewrite

// refreshPages and dropMappedPages are Linux page-cache matters
// (pages_linux.go).
func refreshPages(path string, off, n int64) error { return nil }

func dropMappedPages(dir string) {}
