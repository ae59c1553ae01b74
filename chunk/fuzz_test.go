package chunk

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// fuzzExts are the paths FuzzSplit picks from, one per splitter.
var fuzzExts = []string{"f.go", "f.py", "f.js", "f.ts", "f.tsx", "f.md", "f.txt"}

func FuzzSplit(f *testing.F) {
	for _, name := range fixtures(f) {
		src, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		for i, p := range fuzzExts {
			if filepath.Ext(p) == filepath.Ext(name) {
				f.Add(uint8(i), src)
			}
		}
	}
	f.Fuzz(func(t *testing.T, ext uint8, src []byte) {
		tm := time.AfterFunc(3*time.Second, func() {
			os.WriteFile("/tmp/chunk_hang.bin", append([]byte{ext}, src...), 0o644)
			panic("hang")
		})
		file := Split(fuzzExts[int(ext)%len(fuzzExts)], src)
		tm.Stop()
		checkInvariants(t, src, file)
	})
}
