package embed

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bcindex/bcindex/internal/httpapi"
)

func TestRemoteTimeout(t *testing.T) {
	release := make(chan struct{})
	s, cfg := startOpenAI(t, &openAIServer{fail: func(w http.ResponseWriter, n int, _ openAIRequest) bool {
		select {
		case <-release:
		case <-time.After(5 * time.Second):
		}
		return true
	}})
	t.Cleanup(func() { close(release) }) // before the server's Close
	cfg.Timeout = 50 * time.Millisecond
	r, _ := newTestRemote(t, withDims(cfg, 8))
	r.api.Retry.Attempts = 2
	start := time.Now()
	_, err := r.Embed(context.Background(), []string{"a"}, RoleDocument)
	if err == nil || !strings.Contains(err.Error(), "gave up after 2 attempts") || time.Since(start) > 3*time.Second {
		t.Errorf("err = %v after %v", err, time.Since(start))
	}
	if s.calls.Load() != 2 {
		t.Errorf("%d calls", s.calls.Load())
	}
}

// The fake service stands in for a rate-limited service asking for a long
// wait: cancelling the context ends the wait at once.
func TestRemoteCancelDuringWait(t *testing.T) {
	_, cfg := startOpenAI(t, &openAIServer{fail: func(w http.ResponseWriter, n int, _ openAIRequest) bool {
		w.Header().Set("Retry-After", "60")
		w.WriteHeader(http.StatusTooManyRequests)
		return true
	}})
	r, _ := newTestRemote(t, withDims(cfg, 8))
	r.api.Retry.Sleep = httpapi.SleepCtx // really wait
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := r.Embed(ctx, []string{"a"}, RoleDocument)
	if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > 5*time.Second {
		t.Errorf("err = %v after %v", err, time.Since(start))
	}
	// And during a request in flight.
	release := make(chan struct{})
	_, cfg = startOpenAI(t, &openAIServer{fail: func(w http.ResponseWriter, n int, _ openAIRequest) bool {
		select {
		case <-release:
		case <-time.After(5 * time.Second):
		}
		return true
	}})
	t.Cleanup(func() { close(release) })
	r, _ = newTestRemote(t, withDims(cfg, 8))
	ctx, cancel2 := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel2)
	start = time.Now()
	if _, err := r.Embed(ctx, []string{"a"}, RoleDocument); !errors.Is(err, context.Canceled) || time.Since(start) > time.Second {
		t.Errorf("in flight: err = %v after %v", err, time.Since(start))
	}
}

// The fake service stands in for OpenAI and counts requests in flight:
// concurrent Embed calls never exceed bcindex.concurrency.
func TestRemoteConcurrencyBound(t *testing.T) {
	var inFlight, peak atomic.Int64
	_, cfg := startOpenAI(t, &openAIServer{base64: true, fail: func(w http.ResponseWriter, n int, _ openAIRequest) bool {
		c := inFlight.Add(1)
		for {
			p := peak.Load()
			if c <= p || peak.CompareAndSwap(p, c) {
				break
			}
		}
		time.Sleep(10 * time.Millisecond)
		inFlight.Add(-1)
		return false
	}})
	cfg.Concurrency = 2
	r, _ := newTestRemote(t, withDims(cfg, 8))
	r.maxInputs = 1
	var wg sync.WaitGroup
	for g := range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			texts := []string{fmt.Sprint("a", g), fmt.Sprint("b", g), fmt.Sprint("c", g)}
			got, err := r.Embed(context.Background(), texts, RoleDocument)
			if err != nil {
				t.Error(err)
				return
			}
			checkVectors(t, got, texts, 8)
		}()
	}
	wg.Wait()
	if p := peak.Load(); p > 2 || p < 1 {
		t.Errorf("peak concurrency %d, want ≤ 2", p)
	}
}

// The fake service stands in for OpenAI; the package's conformance suite.
func TestOpenAIConformance(t *testing.T) {
	_, cfg := startOpenAI(t, &openAIServer{base64: true})
	r, _ := newTestRemote(t, withDims(cfg, 8))
	testEmbedder(t, r)
}

// No request is made for nothing to embed, nor to api.openai.com without
// a key.
func TestRemoteNoRequest(t *testing.T) {
	s, cfg := startOpenAI(t, &openAIServer{})
	r, _ := newTestRemote(t, withDims(cfg, 8))
	if _, err := r.Embed(context.Background(), []string{"", " "}, RoleDocument); err != nil || s.calls.Load() != 0 {
		t.Errorf("err %v, %d calls", err, s.calls.Load())
	}
	t.Setenv(EnvAPIKey, "")
	t.Setenv(EnvOpenAIAPIKey, "")
	e, err := New(Config{Provider: "openai", Model: "text-embedding-3-small"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Embed(context.Background(), []string{"a"}, RoleDocument); !errors.Is(err, ErrAuth) || !strings.Contains(err.Error(), EnvAPIKey) {
		t.Errorf("no key: err = %v", err)
	}
}

// API keys come from BCINDEX_API_KEY, else OPENAI_API_KEY (openai only).
func TestAPIKeyFromEnvironment(t *testing.T) {
	t.Setenv(EnvAPIKey, "")
	t.Setenv(EnvOpenAIAPIKey, "sk-openai")
	if k := apiKey(ProviderOpenAI, Config{}); k != "sk-openai" {
		t.Errorf("openai key %q", k)
	}
	if k := apiKey(ProviderOllama, Config{}); k != "" {
		t.Errorf("ollama key %q", k)
	}
	t.Setenv(EnvAPIKey, "sk-bcindex")
	if k := apiKey(ProviderOpenAI, Config{}); k != "sk-bcindex" {
		t.Errorf("openai key %q", k)
	}
	e, _ := New(Config{Provider: "openai", Model: "text-embedding-3-small"})
	if strings.Contains(e.ID(), "sk-") {
		t.Errorf("ID %q", e.ID())
	}
}

// IDs name provider, model and dimension, so vectors of different models
// or dimensions are never mixed; configuration mistakes name the key.
