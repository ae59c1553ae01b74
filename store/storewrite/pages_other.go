//go:build !linux

package storewrite

// refreshPages is a Linux page-cache matter (pages_linux.go).
func refreshPages(path string, off, n int64) error { return nil }
