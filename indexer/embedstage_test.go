package indexer

import (
	"context"
	"testing"
	"time"

	"github.com/bcindex/bcindex/embed"
)

// TestEmbedStageSendsAfterAPause: a call that is not full goes out when
// the stream of blobs pauses, before the stream ends, and a blob that
// needs no vectors passes through at once.
func TestEmbedStageSendsAfterAPause(t *testing.T) {
	idle := embedIdle
	embedIdle = 10 * time.Millisecond
	t.Cleanup(func() { embedIdle = idle })
	emb := embed.Default()
	in := make(chan *blobResult)
	out := make(chan *blobResult, 4)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- embedStage(ctx, emb, embed.Limits{Inputs: 1000, Bytes: 1 << 20, InFlight: 2}, in, out) }()

	plain := &blobResult{seq: 1}
	in <- plain
	if got := receive(t, out); got != plain {
		t.Fatalf("a blob without chunks to embed came out as %+v", got)
	}
	r := &blobResult{seq: 2, vectors: make([][]int8, 2), scales: make([]float32, 2),
		toEmbed: &toEmbed{path: "a.go", chunks: []int{0, 1}, inputs: []string{"func retry()", "func backoff()"}, owner: []int{0, 1}}}
	in <- r
	// The stream stays open: only the pause can send the call.
	got := receive(t, out)
	if got != r || got.embedded != 2 || got.toEmbed != nil || len(got.vectors[0]) == 0 || len(got.vectors[1]) == 0 {
		t.Fatalf("after a pause the blob came out as %+v", got)
	}
	close(in)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// receive waits for the stage's next blob; a stage that never sends it
// fails the test.
func receive(t *testing.T, out <-chan *blobResult) *blobResult {
	t.Helper()
	select {
	case r := <-out:
		return r
	case <-time.After(30 * time.Second):
		t.Fatal("the embedding stage sent nothing")
		return nil
	}
}
