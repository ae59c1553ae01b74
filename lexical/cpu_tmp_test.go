package lexical

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"
)

func cpuNow() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func TestCPUBench(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(goroot(), "src", "net", "http", "*.go"))
	w := NewWriter()
	row := 0
	c0 := cpuNow()
	for _, f := range files {
		src, _ := os.ReadFile(f)
		lines := strings.SplitAfter(string(src), "\n")
		for i := 0; i < len(lines); i += 40 {
			w.Add(row, Tokens(strings.Join(lines[i:min(i+40, len(lines))], "")))
			row++
		}
	}
	fmt.Println("tokenize+add", cpuNow()-c0)
	c0 = cpuNow()
	path := filepath.Join(t.TempDir(), "x")
	w.WriteFile(path)
	fmt.Println("write", cpuNow()-c0)
	st, _ := os.Stat(path)
	fmt.Println("file size", st.Size())
	ix, _ := Open(path)
	type tf struct {
		term string
		df   int
	}
	var all []tf
	for i := 0; i < ix.Terms(); i++ {
		t := string(ix.term(i))
		all = append(all, tf{t, ix.Postings(t).Len()})
	}
	sort.Slice(all, func(i, j int) bool { return all[i].df > all[j].df })
	var queries []string
	for i, t := range all {
		if i < 20 || i%50 == 0 {
			queries = append(queries, t.term)
		}
	}
	np := 0
	for _, q := range queries {
		np += ix.Postings(q).Len()
	}
	fmt.Println(ix.Rows(), "rows", ix.Terms(), "terms", len(queries), "queries", np, "postings")
	for range 3 {
		const N = 300
		c0 := cpuNow()
		for range N {
			for _, q := range queries {
				p := ix.Postings(q)
				for p.Next() {
				}
			}
		}
		cpu := cpuNow() - c0
		c1 := cpuNow()
		for range N {
			for _, q := range queries {
				ix.Iter(q)
			}
		}
		cpu2 := cpuNow() - c1
		fmt.Printf("postings: %v/op %.1f ns/posting; lookup %.0f ns\n", cpu/N, float64(cpu.Nanoseconds())/float64(N*np), float64(cpu2.Nanoseconds())/float64(N*len(queries)))
	}
}
