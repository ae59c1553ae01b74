//go:build unix

package weaviatetest

import "syscall"

// ownGroup starts the node in a process group of its own, so that a
// signal to the test's group does not reach it before the test stops it.
func ownGroup() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }
