package vector

import (
	"errors"
	"runtime"
	"runtime/debug"
)

// ErrFault is returned when mapped vectors could not be read: the file
// under the mapping was truncated or removed meanwhile (a store's value log
// that its database rewrote), or the disk failed. Opening the segment again
// reads where the rows are now.
var ErrFault = errors.New("vector: mapped data became unreadable; open the segment again")

// guardFault is deferred, with the setting SetPanicOnFault(true) returned,
// by every method that reads mapped rows: a fault there (SIGBUS on a
// truncated file) becomes ErrFault in *err instead of killing the process.
// Other panics go on.
func guardFault(old bool, err *error) {
	debug.SetPanicOnFault(old)
	r := recover()
	if r == nil {
		return
	}
	if re, ok := r.(runtime.Error); ok {
		if _, ok := re.(interface{ Addr() uintptr }); ok {
			*err = ErrFault
			return
		}
	}
	panic(r)
}
