//go:build !unix

package weaviatetest

import "syscall"

// ownGroup leaves the node in the test's group where there are none.
func ownGroup() *syscall.SysProcAttr { return nil }
