package exact

import (
	"regexp"
	"testing"

	"github.com/wasilibs/go-re2"
)

// BenchmarkLines runs Lines over go-git's sources and tests (4.2 MB) file
// by file, as a search verifies candidate blobs.
func BenchmarkLines(b *testing.B) {
	files := moduleFiles(b, true)
	size := 0
	for _, f := range files {
		size += len(f.content)
	}
	for _, c := range []struct {
		name, pat string
		o         Options
	}{
		{"literal", "hash.Hash", Options{Fixed: true}},
		{"literal-i", "packfile", Options{Fixed: true, IgnoreCase: true}},
		{"regex-literal-i", "packfile", Options{IgnoreCase: true}},
		{"engine-i", "packfile|qqqqzzzz", Options{IgnoreCase: true}}, // no literal to look for: RE2 does it all
		{"class-with-literal", `\w+Error\b`, Options{}},
		{"class", `[A-Z][a-z]+[0-9]+`, Options{}},
		{"word", "err", Options{Word: true}},
	} {
		m, err := Compile([]string{c.pat}, c.o)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(size))
			for b.Loop() {
				for _, f := range files {
					m.Lines(f.content, func(Line) bool { return true })
				}
			}
		})
	}
}

// BenchmarkEngines compares, on the same files, Go's regexp and RE2 as the
// matcher first meets them: finding every matching line of each file by
// successive leftmost searches over the rest of the file. It backs the
// choice of RE2 for bulk searches (see regex).
func BenchmarkEngines(b *testing.B) {
	files := moduleFiles(b, true)
	size := 0
	for _, f := range files {
		size += len(f.content)
	}
	for _, pat := range []string{`[A-Z][a-z]+[0-9]+`, `\w+Error\b`, `\bfunc\b`} {
		g := regexp.MustCompile("(?m)" + pat)
		r := re2.MustCompile("(?m)" + pat)
		for _, e := range []struct {
			name string
			re   engine
		}{{"go", g}, {"re2", r}} {
			b.Run(e.name+"/"+pat, func(b *testing.B) {
				b.SetBytes(int64(size))
				for b.Loop() {
					for _, f := range files {
						for pos := 0; pos < len(f.content); {
							loc := e.re.FindIndex(f.content[pos:])
							if loc == nil {
								break
							}
							pos = lineEnd(f.content, pos+loc[0]) + 1
						}
					}
				}
			})
		}
	}
}

// BenchmarkTrigrams extracts the trigrams of every file, as the indexer
// does for each new blob.
func BenchmarkTrigrams(b *testing.B) {
	files := moduleFiles(b, true)
	size := 0
	for _, f := range files {
		size += len(f.content)
	}
	b.SetBytes(int64(size))
	var dst []uint32
	for b.Loop() {
		for _, f := range files {
			dst = Trigrams(f.content, dst[:0])
		}
	}
}
