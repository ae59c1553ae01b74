package train

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/bcindex/bcindex/embed"
)

func mixCorpus() []Pair {
	var pairs []Pair
	add := func(kind, lang string, n int) {
		for i := 0; i < n; i++ {
			pairs = append(pairs, Pair{Kind: kind, Lang: lang, Src: fmt.Sprintf("%s-pkg%d", lang, i%3), Query: fmt.Sprint(kind, lang, i)})
		}
	}
	add(KindDoc, "python", 900)
	add(KindDoc, "swift", 100)
	add(KindName, "python", 400)
	add(KindName, "swift", 100)
	add(KindPath, "python", 50)
	return pairs
}

func count(ps []Pair) map[string]int {
	m := map[string]int{}
	for _, p := range ps {
		m[p.Kind+"/"+p.Lang]++
	}
	return m
}

func TestMix(t *testing.T) {
	pairs := mixCorpus()
	doc, err := ParseMix("")
	if err != nil {
		t.Fatal(err)
	}
	if got := count(Mix(pairs, doc, 1, 0, 1)); got["/python"] != 900 || got["/swift"] != 100 || len(got) != 2 {
		t.Errorf("doc only, as mined: %v", got)
	}
	// Even languages: swift's 100 doc pairs are repeated to 500.
	if got := count(Mix(pairs, doc, 0, 0, 1)); got["/python"] != 500 || got["/swift"] != 500 {
		t.Errorf("doc only, languages even: %v", got)
	}
	m, err := ParseMix("doc=2,name=1,path=1")
	if err != nil {
		t.Fatal(err)
	}
	a := Mix(pairs, m, 1, 1000, 7)
	got := count(a)
	if got["/python"] != 450 || got["/swift"] != 50 || got["name/python"] != 200 || got["name/swift"] != 50 || got["path/python"] != 250 {
		t.Errorf("mix 2:1:1 of 1000: %v", got)
	}
	if b := Mix(pairs, m, 1, 1000, 7); fmt.Sprint(a) != fmt.Sprint(b) {
		t.Error("same seed, different mix")
	}
	if c := Mix(pairs, m, 1, 1000, 8); fmt.Sprint(a) == fmt.Sprint(c) {
		t.Error("seeds 7 and 8 gave the same mix")
	}
	for _, bad := range []string{"doc", "doc=x", "code=1", "doc=-1"} {
		if _, err := ParseMix(bad); err == nil {
			t.Errorf("ParseMix(%q) accepted", bad)
		}
	}
}

func TestBatches(t *testing.T) {
	pairs := mixCorpus()
	rng := rand.New(rand.NewPCG(1, 2))
	perm := rng.Perm(len(pairs))
	seen := map[int]bool{}
	pure := 0
	bs := batches(pairs, perm, 50, "lang", rng)
	for _, b := range bs {
		if len(b) != 50 {
			t.Fatalf("batch of %d", len(b))
		}
		one := true
		for _, i := range b {
			if seen[i] {
				t.Fatalf("pair %d in two batches", i)
			}
			seen[i] = true
			one = one && pairs[i].Lang == pairs[b[0]].Lang
		}
		if one {
			pure++
		}
	}
	// 1350 python pairs make 27 batches, 200 swift pairs 4: all of one language.
	if len(bs) != 31 || pure != 31 {
		t.Errorf("%d batches, %d of one language; want 31, 31", len(bs), pure)
	}
	if n := len(batches(pairs, perm, 50, "", rng)); n != len(pairs)/50 {
		t.Errorf("random batches: %d, want %d", n, len(pairs)/50)
	}
}

// A mix that repeats a small language into batches filled by language
// trains deterministically, and a pair drawn twice into a batch is not
// its own negative (the loss stays finite and the model loads).
func TestTrainMixed(t *testing.T) {
	var pairs []Pair
	for i := 0; i < 96; i++ {
		lang, kind := "go", KindDoc
		if i%4 == 0 {
			lang = "swift"
		}
		if i%3 == 0 {
			kind = KindName
		}
		pairs = append(pairs, Pair{Src: "p", Lang: lang, Kind: kind,
			Query: fmt.Sprintf("frobnicate widget %d with care", i%17),
			Code:  fmt.Sprintf("func Frob%d(w *Widget) error { return w.frob(%d, care) }", i, i%5)})
	}
	cfg := DefaultConfig()
	cfg.Dim, cfg.Vocab, cfg.MinDF, cfg.Batch, cfg.Buckets, cfg.Epochs = 16, 100, 1, 32, 8, 2
	cfg.Mix, cfg.LangTemp, cfg.BatchBy, cfg.MaxPairs = "doc=1,name=1", 0, "lang", 200
	a, err := Train(context.Background(), cfg, pairs, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Train(context.Background(), cfg, pairs, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a, b) {
		t.Fatal("two trainings of the same corpus differ")
	}
	m, err := embed.LoadStatic(a)
	if err != nil {
		t.Fatal(err)
	}
	v, err := m.Embed(context.Background(), []string{"frobnicate widget"}, embed.RoleQuery)
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range v[0] {
		if math.IsNaN(float64(x)) {
			t.Fatal("NaN in a trained vector")
		}
	}
	cfg.BatchBy = "file"
	if _, err := Train(context.Background(), cfg, pairs, nil, 0); err == nil {
		t.Error("-batchby file accepted")
	}
}
