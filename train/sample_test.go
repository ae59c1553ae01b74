package train

import (
	"fmt"
	"testing"
)

func TestSample(t *testing.T) {
	var pairs []Pair
	srcs := map[string]bool{}
	for i := 0; i < 1000; i++ {
		p := Pair{Src: fmt.Sprintf("pkg%02d", i/100), Query: fmt.Sprint(i)}
		pairs = append(pairs, p)
		srcs[p.Src] = true
	}
	if got := Sample(pairs, 0, 1); len(got) != 1000 {
		t.Fatalf("n 0 kept %d pairs, want all", len(got))
	}
	a, b := Sample(pairs, 300, 1), Sample(pairs, 300, 1)
	if len(a) != 300 {
		t.Fatalf("sampled %d pairs, want 300", len(a))
	}
	seen := map[string]bool{}
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("same seed, different samples at %d: %v %v", i, a[i], b[i])
		}
		if seen[a[i].Query] {
			t.Fatalf("pair %s sampled twice", a[i].Query)
		}
		seen[a[i].Query] = true
		if i > 0 && a[i].Src < a[i-1].Src {
			t.Fatalf("sample not in corpus order at %d", i)
		}
		delete(srcs, a[i].Src)
	}
	if len(srcs) != 0 {
		t.Errorf("packages %v not sampled at all: the sample is not spread over the corpus", srcs)
	}
	if c := Sample(pairs, 300, 2); fmt.Sprint(c) == fmt.Sprint(a) {
		t.Error("seeds 1 and 2 gave the same sample")
	}
}
