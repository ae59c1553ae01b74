package chunk

import (
	"fmt"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// busyGo is a Go file with a syntax error near its top, which recoverDefs
// answers with parses that start from the previous one's tree.
func busyGo(funcs int) []byte {
	var b strings.Builder
	b.WriteString("package busy\n\nfunc broken( {\n\treturn\n}\n")
	for i := range funcs {
		fmt.Fprintf(&b, "\n// F%d adds.\nfunc F%d(a, b int) (int, error) {\n\tif a > b {\n\t\treturn a - b, nil\n\t}\n\tfor i := 0; i < a; i++ {\n\t\tb += i * %d\n\t}\n\treturn a + b, nil\n}\n", i, i, i)
	}
	return []byte(b.String())
}

// TestParseLimitIsCPUTime: a file's chunks are the same whether the machine
// is idle or busy. The parse limit is set to three times the CPU time the
// file's parse takes; with many more running threads than CPUs the parse
// takes longer than that by the clock, and the file must still be chunked
// as on an idle machine, not split into windows as a failed parse.
func TestParseLimitIsCPUTime(t *testing.T) {
	if _, ok := threadCPU(); !ok {
		t.Skip("the thread's CPU time is not known on this system")
	}
	src := busyGo(1500)
	want := Split("busy.go", src)
	if want.Fallback || want.SyntaxErrors == 0 || len(want.Chunks) < 1500 {
		t.Fatalf("idle chunking: fallback %v, %d syntax errors, %d chunks", want.Fallback, want.SyntaxErrors, len(want.Chunks))
	}
	// The CPU time of one parse of the whole file, the longest one.
	runtime.LockOSThread()
	start, _ := threadCPU()
	if tree := parseTree("go", src, nil, parseBaseMicros, nil); tree != nil {
		tree.Close()
	}
	end, _ := threadCPU()
	runtime.UnlockOSThread()
	cpu := max(end-start, time.Millisecond)
	base := int(3*cpu.Microseconds()) - 10*len(src) // parseLimitMicros(base, len(src)) is 3 × cpu

	spinners := 8 * runtime.NumCPU()
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(spinners + 1))
	var stop atomic.Bool
	var wg sync.WaitGroup
	for range spinners {
		wg.Go(func() {
			for !stop.Load() {
			}
		})
	}
	began := time.Now()
	got := split("busy.go", src, base)
	took := time.Since(began)
	stop.Store(true)
	wg.Wait()
	t.Logf("parse CPU %v, limit %v, busy chunking took %v", cpu, 3*cpu, took)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("busy chunking differs: fallback %v, %d syntax errors, %d chunks; idle: fallback %v, %d syntax errors, %d chunks",
			got.Fallback, got.SyntaxErrors, len(got.Chunks), want.Fallback, want.SyntaxErrors, len(want.Chunks))
	}
}
