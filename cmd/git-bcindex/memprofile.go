package main

import (
	"os"
	"runtime"
	"runtime/metrics"
	"runtime/pprof"
	"time"
)

// profileHeapPeak writes, while the command runs, the heap profile of
// the largest live heap seen so far to path (BCINDEX_MEMPROFILE=FILE, for
// measurements): the heap's size is read every 100 ms after each
// collection, and the profile rewritten when it grew by a tenth. The
// returned function stops the sampling and writes the last profile.
func profileHeapPeak(path string) func() {
	done := make(chan struct{})
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
		var peak uint64
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
			}
			metrics.Read(sample)
			live := sample[0].Value.Uint64()
			if live <= peak+peak/10 {
				continue
			}
			peak = live
			writeHeapProfile(path)
		}
	}()
	return func() {
		close(done)
		<-stopped
	}
}

func writeHeapProfile(path string) {
	f, err := os.Create(path + ".tmp")
	if err != nil {
		return
	}
	runtime.GC() // the profile of the live objects at this point
	err = pprof.WriteHeapProfile(f)
	if f.Close() == nil && err == nil {
		os.Rename(path+".tmp", path)
	}
}
