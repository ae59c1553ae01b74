package chunk

import (
	"os"
	"path/filepath"
	"testing"
)

// fuzzExts are the paths FuzzSplit picks from, one per splitter.
var fuzzExts = []string{"f.go", "f.py", "f.js", "f.ts", "f.tsx", "f.md", "f.txt",
	"f.java", "f.rs", "f.c", "f.cpp", "f.cs", "f.rb", "f.php", "f.kt", "f.scala", "f.swift",
	"f.sh", "f.lua", "f.ex", "f.ml", "f.tf", "f.sql", "f.proto", "Dockerfile", "f.jsx",
	"f.json", "f.yaml", "f.toml"}

func FuzzSplit(f *testing.F) {
	for _, name := range fixtures(f) {
		src, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		for i, p := range fuzzExts {
			if filepath.Ext(p) == filepath.Ext(name) || p == name {
				f.Add(uint8(i), src)
			}
		}
	}
	f.Fuzz(func(t *testing.T, ext uint8, src []byte) {
		// A looping grammar gives up after 20 ms instead of 2 s, so that
		// minimizing such an input ends within the fuzzing time.
		file := split(fuzzExts[int(ext)%len(fuzzExts)], src, 20_000)
		checkInvariants(t, src, file)
	})
}
