package embed

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

type ollamaServer struct {
	t     *testing.T
	dim   int
	fail  func(w http.ResponseWriter, n int) bool
	calls atomic.Int64
	mu    sync.Mutex
	reqs  []map[string]any
}

func (s *ollamaServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	n := int(s.calls.Add(1))
	if r.Method != http.MethodPost || r.URL.Path != "/api/embed" {
		s.t.Errorf("request %s %s, want POST /api/embed", r.Method, r.URL.Path)
	}
	if a := r.Header.Get("Authorization"); a != "" {
		s.t.Errorf("Authorization sent without a key: %q", a)
	}
	var req map[string]any
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		s.t.Errorf("body: %v", err)
	}
	s.mu.Lock()
	s.reqs = append(s.reqs, req)
	s.mu.Unlock()
	if s.fail != nil && s.fail(w, n) {
		return
	}
	if req["model"] != "nomic-embed-text" {
		w.WriteHeader(http.StatusNotFound)
		fmt.Fprintf(w, `{"error":"model %q not found, try pulling it first"}`, req["model"])
		return
	}
	var out [][]float32
	for _, in := range req["input"].([]any) {
		out = append(out, fakeVector(in.(string), s.dim))
	}
	json.NewEncoder(w).Encode(map[string]any{"model": req["model"], "embeddings": out, "total_duration": 1})
}

func startOllama(t *testing.T, s *ollamaServer) (*ollamaServer, Config) {
	s.t = t
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	t.Setenv(EnvAPIKey, "")
	return s, Config{Provider: "ollama", Endpoint: srv.URL, Model: "nomic-embed-text"}
}

// The fake service stands in for Ollama: request shape, batching, answer.
func TestOllama(t *testing.T) {
	s, cfg := startOllama(t, &ollamaServer{dim: 768})
	r, _ := newTestRemote(t, cfg)
	if r.ID() != "ollama:nomic-embed-text:768" {
		t.Errorf("ID %q", r.ID())
	}
	r.maxInputs = 2
	texts := []string{"one", "two", "", "three"}
	got, err := r.Embed(context.Background(), texts, RoleDocument)
	if err != nil {
		t.Fatal(err)
	}
	checkVectors(t, got, texts, 768)
	if len(s.reqs) != 2 {
		t.Fatalf("%d requests", len(s.reqs))
	}
	for _, q := range s.reqs {
		if len(q) != 2 || q["model"] != "nomic-embed-text" {
			t.Errorf("request %v: want only model and input", q)
		}
	}
	testEmbedder(t, r)
}

// The fake service stands in for Ollama: dimensions are sent when
// configured, errors are Ollama's {"error": "..."} strings.
func TestOllamaErrors(t *testing.T) {
	s, cfg := startOllama(t, &ollamaServer{dim: 64})
	cfg.Dimensions = 64
	r, _ := newTestRemote(t, cfg)
	if _, err := r.Embed(context.Background(), []string{"a"}, RoleDocument); err != nil {
		t.Fatal(err)
	}
	if s.reqs[0]["dimensions"] != float64(64) {
		t.Errorf("request %v lacks dimensions", s.reqs[0])
	}
	cfg.Model = "missing-model"
	r, _ = newTestRemote(t, cfg)
	_, err := r.Embed(context.Background(), []string{"a"}, RoleDocument)
	if err == nil || !strings.Contains(err.Error(), `model "missing-model" not found`) || !strings.Contains(err.Error(), "bcindex.model") {
		t.Errorf("err = %v", err)
	}
	// Wrong dimension count and malformed JSON.
	s, cfg = startOllama(t, &ollamaServer{dim: 32})
	r, _ = newTestRemote(t, cfg) // nomic-embed-text is 768-d
	if _, err := r.Embed(context.Background(), []string{"a"}, RoleDocument); err == nil || !strings.Contains(err.Error(), "returned 32 dimensions, expected 768") {
		t.Errorf("err = %v", err)
	}
	_, cfg = startOllama(t, &ollamaServer{dim: 768, fail: func(w http.ResponseWriter, n int) bool {
		if n == 1 {
			w.WriteHeader(http.StatusInternalServerError)
			fmt.Fprint(w, `{"error":"llama runner process has terminated"}`)
			return true
		}
		fmt.Fprint(w, `{"embeddings": [[1,2`)
		return true
	}})
	r, sl := newTestRemote(t, cfg)
	if _, err := r.Embed(context.Background(), []string{"a"}, RoleDocument); err == nil || !strings.Contains(err.Error(), "decode response") || len(sl.d) != 1 {
		t.Errorf("err = %v, waits %v", err, sl.d)
	}
}

func TestConfigAndIDs(t *testing.T) {
	t.Setenv(EnvAPIKey, "sk-secret-in-env")
	ids := map[string]Config{
		"openai:text-embedding-3-small:1536": {Provider: "openai", Model: "text-embedding-3-small"},
		"openai:text-embedding-3-small:512":  {Provider: "openai", Model: "text-embedding-3-small", Dimensions: 512},
		"openai:text-embedding-3-large:3072": {Provider: "OpenAI", Model: "text-embedding-3-large"},
		"openai:doubao-embedding:2560":       {Provider: "openai", Endpoint: "https://ark.cn-beijing.volces.com/api/v3", Model: "doubao-embedding", Dimensions: 2560},
		"ollama:nomic-embed-text:latest:768": {Provider: "ollama", Model: "nomic-embed-text:latest"},
		"ollama:bge-m3:1024":                 {Provider: "ollama", Model: "bge-m3"},
		BuiltinID:                            {},
	}
	for want, cfg := range ids {
		e, err := New(cfg)
		if err != nil {
			t.Errorf("%+v: %v", cfg, err)
			continue
		}
		if e.ID() != want {
			t.Errorf("%+v: ID %q, want %q", cfg, e.ID(), want)
		}
		if strings.Contains(e.ID(), "secret") {
			t.Errorf("ID %q holds the key", e.ID())
		}
	}
	e, _ := New(Config{Provider: "openai", Endpoint: "https://ark.cn-beijing.volces.com/api/v3/embeddings/", Model: "m", Dimensions: 4})
	if ep := e.(*Remote).Endpoint(); ep != "https://ark.cn-beijing.volces.com/api/v3" {
		t.Errorf("endpoint %q", ep)
	}
	bad := []struct {
		cfg Config
		key string
	}{
		{Config{Provider: "cohere"}, "bcindex.embedder"},
		{Config{Provider: "openai"}, "bcindex.model"},
		{Config{Provider: "openai", Model: "my model"}, "bcindex.model"},
		{Config{Provider: "openai", Model: "custom-embed"}, "bcindex.dimensions"},
		{Config{Provider: "ollama", Model: "custom-embed"}, "bcindex.dimensions"},
		{Config{Provider: "openai", Model: "m", Dimensions: -1}, "bcindex.dimensions"},
		{Config{Provider: "openai", Model: "m", Dimensions: 4, Endpoint: "ftp://host/v1"}, "bcindex.endpoint"},
		{Config{Provider: "openai", Model: "m", Dimensions: 4, Endpoint: "api.openai.com/v1"}, "bcindex.endpoint"},
		{Config{Provider: "openai", Model: "m", Dimensions: 4, Endpoint: "https://user:sk-pass@host/v1"}, "bcindex.endpoint"},
		{Config{Model: "text-embedding-3-small"}, "bcindex.model"},
		{Config{Provider: "builtin", Endpoint: "http://x"}, "bcindex.endpoint"},
		{Config{Dimensions: 256}, "bcindex.dimensions"},
		{Config{Provider: "model2vec"}, "bcindex.model"},
		{Config{Provider: "model2vec", Model: t.TempDir()}, "bcindex.model"},
	}
	for _, b := range bad {
		_, err := New(b.cfg)
		var ce *ConfigError
		if !errors.As(err, &ce) || ce.Key != b.key {
			t.Errorf("%+v: err = %v, want a ConfigError on %s", b.cfg, err, b.key)
			continue
		}
		if strings.Contains(err.Error(), "sk-pass") {
			t.Errorf("error shows a credential: %v", err)
		}
	}
}
