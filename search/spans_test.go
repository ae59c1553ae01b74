package search

import (
	"context"
	"errors"
	"testing"

	"github.com/bcindex/bcindex/internal/testkit/gittest"
	"github.com/bcindex/bcindex/store"
)

const checksumGo = `

// ComputeChecksum adds up the bytes of a buffer for a quick checksum.
func ComputeChecksum(buf []byte) int {
	n := 0
	for _, b := range buf {
		n += int(b)
	}
	return n
}
`

// TestRawAndChunkSpans: a raw text ranking is BM25's own order, each copy
// of a chunk apart (the ranked search collapses them into one hit), and
// ChunkSpans lists the chunk at both paths. A raw hybrid is refused.
func TestRawAndChunkSpans(t *testing.T) {
	r := gittest.New(t)
	r.Commit("two copies", map[string]string{"sum/checksum.go": "package sum\n" + checksumGo, "copy/checksum.go": "package copy\n" + checksumGo})
	repo := openRepo(t, r.Dir)
	ranked := run(t, repo, Options{Query: "checksum of the bytes", Mode: ModeText})
	raw := run(t, repo, Options{Query: "checksum of the bytes", Mode: ModeText, Raw: true})
	named := func(res *Result) (n int) {
		for _, h := range res.Hits {
			if h.Name == "ComputeChecksum" {
				n++
			}
		}
		return n
	}
	if named(ranked) != 1 || named(raw) != 2 {
		t.Errorf("ComputeChecksum hits: ranked %d (want 1), raw %d (want 2)", named(ranked), named(raw))
	}
	for i := 1; i < len(raw.Hits); i++ {
		if raw.Hits[i].Score > raw.Hits[i-1].Score {
			t.Errorf("raw hits out of BM25 order: %v", raw.Hits)
		}
	}
	p, err := NewPlan(repo, Options{Query: "checksum", Rev: "HEAD"})
	if err != nil {
		t.Fatal(err)
	}
	rd, err := store.Open(context.Background(), repo, p.Want, "")
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	spans, err := ChunkSpans(context.Background(), rd)
	if err != nil {
		t.Fatal(err)
	}
	at := map[string]ChunkSpan{}
	for _, s := range spans {
		if s.Name == "ComputeChecksum" {
			at[s.Path] = s
		}
	}
	for _, p := range []string{"sum/checksum.go", "copy/checksum.go"} {
		if s, ok := at[p]; !ok || s.StartLine != 4 || s.EndLine != 11 || s.Kind != "function" {
			t.Errorf("span of ComputeChecksum in %s = %+v (found %v)", p, s, ok)
		}
	}
	if _, err := searchRepo(context.Background(), repo, Options{Query: "checksum", Raw: true}); !errors.Is(err, ErrBadMode) {
		t.Errorf("raw hybrid: %v", err)
	}
}
