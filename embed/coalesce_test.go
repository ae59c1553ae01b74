package embed

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// recorder embeds a text as a one-dimensional vector holding its length, and
// records the size of every call.
type recorder struct {
	mu    sync.Mutex
	calls []int
	fail  atomic.Bool
	delay time.Duration
}

func (r *recorder) ID() string { return "recorder" }
func (r *recorder) Dim() int   { return 1 }
func (r *recorder) Embed(ctx context.Context, texts []string, role Role) ([][]float32, error) {
	r.mu.Lock()
	r.calls = append(r.calls, len(texts))
	r.mu.Unlock()
	time.Sleep(r.delay)
	if r.fail.Load() {
		return nil, errors.New("provider down")
	}
	out := make([][]float32, len(texts))
	for i, t := range texts {
		out[i] = []float32{float32(len(t)) + float32(role)*1000}
	}
	return out, nil
}

func TestCoalescerMergesConcurrentCalls(t *testing.T) {
	rec := &recorder{delay: 5 * time.Millisecond}
	c := NewCoalescer(rec, 10, 2, 50*time.Millisecond)
	const callers = 12
	var wg sync.WaitGroup
	errs := make(chan error, callers)
	for g := range callers {
		wg.Go(func() {
			role := RoleDocument
			if g%4 == 3 {
				role = RoleQuery
			}
			texts := []string{fmt.Sprint(g), fmt.Sprint(g, "-x"), fmt.Sprint(g, "-xyz")}
			vecs, err := c.Embed(context.Background(), texts, role)
			if err != nil {
				errs <- err
				return
			}
			for i, txt := range texts {
				if want := float32(len(txt)) + float32(role)*1000; len(vecs) != 3 || vecs[i][0] != want {
					errs <- fmt.Errorf("caller %d got %v for %q", g, vecs, txt)
					return
				}
			}
		})
	}
	wg.Wait()
	c.Close()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	total := 0
	for _, n := range rec.calls {
		if n > 10 {
			t.Fatalf("a merged call held %d inputs, more than 10", n)
		}
		total += n
	}
	if total != 3*callers || len(rec.calls) >= callers {
		t.Fatalf("calls %v: want %d inputs in fewer than %d calls", rec.calls, 3*callers, callers)
	}
	// After Close, calls go straight to the embedder.
	if v, err := c.Embed(context.Background(), []string{"abc"}, RoleDocument); err != nil || v[0][0] != 3 {
		t.Fatalf("after Close: %v, %v", v, err)
	}
}

func TestCoalescerPropagatesErrors(t *testing.T) {
	rec := &recorder{}
	rec.fail.Store(true)
	c := NewCoalescer(rec, 100, 1, 20*time.Millisecond)
	defer c.Close()
	var wg sync.WaitGroup
	var failed atomic.Int32
	for range 4 {
		wg.Go(func() {
			if _, err := c.Embed(context.Background(), []string{"a", "b"}, RoleDocument); err != nil {
				failed.Add(1)
			}
		})
	}
	wg.Wait()
	if failed.Load() != 4 {
		t.Fatalf("%d of 4 callers saw the provider's error", failed.Load())
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := c.Embed(ctx, []string{"a"}, RoleDocument); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled call: %v", err)
	}
}
