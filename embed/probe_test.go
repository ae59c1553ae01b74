package embed

import (
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// mapCache is a DimCache in memory.
type mapCache struct {
	mu sync.Mutex
	m  map[string]int
}

func (c *mapCache) Dim(k string) (int, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	d, ok := c.m[k]
	return d, ok
}

func (c *mapCache) SetDim(k string, d int) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[string]int{}
	}
	c.m[k] = d
	return nil
}

// An unknown model's vector length is learned by one tiny request to the
// endpoint (an in-process server speaking OpenAI's documented
// POST /v1/embeddings wire format), kept, and not asked again.
func TestProbeDimensions(t *testing.T) {
	s, cfg := startOpenAI(t, &openAIServer{dim: 24})
	cache := &mapCache{}
	cfg.Dims = cache
	e, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if e.Dim() != 24 || e.ID() != "openai:test-embed:24" {
		t.Errorf("probed embedder: dim %d, ID %q", e.Dim(), e.ID())
	}
	if n := s.calls.Load(); n != 1 {
		t.Fatalf("probe made %d requests, want 1", n)
	}
	if s.requests[0].Dimensions != 0 || len(s.requests[0].Input) != 1 || len(s.requests[0].Input[0]) > 32 {
		t.Errorf("probe request %+v: want one short input and no dimensions field", s.requests[0])
	}
	if len(cache.m) != 1 {
		t.Errorf("cache after probe: %v", cache.m)
	}
	// Known now: no second request.
	if e, err = New(cfg); err != nil || e.Dim() != 24 || s.calls.Load() != 1 {
		t.Errorf("second New: dim %v, err %v, requests %d", e, err, s.calls.Load())
	}
	// bcindex.dimensions still overrides, and is sent.
	cfg.Dimensions = 12
	if e, err = New(cfg); err != nil || e.Dim() != 12 || s.calls.Load() != 1 {
		t.Errorf("with dimensions 12: %v, %v, %d requests", e, err, s.calls.Load())
	}
	// Without a cache the old rule holds: a ConfigError naming the key.
	cfg.Dimensions, cfg.Dims = 0, nil
	if _, err = New(cfg); err == nil || !strings.Contains(err.Error(), "bcindex.dimensions") {
		t.Errorf("no cache: %v", err)
	}
}

// A dead or misconfigured endpoint fails the probe with what to check next.
func TestProbeErrorsSayWhatToCheck(t *testing.T) {
	dead := httptest.NewServer(nil)
	deadURL := dead.URL
	dead.Close()
	_, err := New(Config{Provider: "openai", Endpoint: deadURL + "/v1", Model: "custom-embed", APIKey: testKey, Dims: &mapCache{}})
	if err == nil || !strings.Contains(err.Error(), "check that "+deadURL+"/v1 answers") || !strings.Contains(err.Error(), "bcindex.dimensions") {
		t.Errorf("dead endpoint: %v", err)
	}

	// An in-process server speaking Ollama's POST /api/embed, which does not
	// serve the configured model.
	_, cfg := startOllama(t, &ollamaServer{dim: 8})
	cfg.Model, cfg.Dims = "no-such-embed", &mapCache{}
	_, err = New(cfg)
	if err == nil || !strings.Contains(err.Error(), `serves an embedding model named "no-such-embed"`) || !strings.Contains(err.Error(), "not found") {
		t.Errorf("unknown model: %v", err)
	}

}
