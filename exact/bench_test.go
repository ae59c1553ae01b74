package exact

import "testing"

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
