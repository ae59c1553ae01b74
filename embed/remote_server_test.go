package embed

import (
	"context"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

const testKey = "sk-test-0123456789abcdef"

// fakeVector is the deterministic embedding the fake services return: not
// normalised, so the tests see that Remote normalises.
func fakeVector(text string, dim int) []float32 {
	h := fnv.New64a()
	io.WriteString(h, text)
	s := h.Sum64()
	v := make([]float32, dim)
	for i := range v {
		s = s*6364136223846793005 + 1442695040888963407
		v[i] = float32(int64(s>>40)%1000)/100 + 0.5
	}
	return v
}

func unit(v []float32) []float32 {
	out := append([]float32(nil), v...)
	normalize(out)
	return out
}

func b64(v []float32) string {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	return base64.StdEncoding.EncodeToString(b)
}

// openAIServer stands in for the real OpenAI embeddings service (and the
// compatible ones: Volcengine Ark, vLLM, TEI, LM Studio, llama.cpp): it
// speaks the documented wire format of POST /v1/embeddings, checks the
// request shape, and lets each test script failures.
type openAIServer struct {
	t       *testing.T
	dim     int
	base64  bool // answer base64 when asked (else always floats)
	reverse bool // list data in reverse index order
	// fail, if set, may answer a request itself (n counts from 1).
	fail func(w http.ResponseWriter, n int, req openAIRequest) bool

	mu       sync.Mutex
	requests []openAIRequest
	calls    atomic.Int64
}

func (s *openAIServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	n := int(s.calls.Add(1))
	if r.Method != http.MethodPost || r.URL.Path != "/v1/embeddings" {
		s.t.Errorf("request %s %s, want POST /v1/embeddings", r.Method, r.URL.Path)
		http.NotFound(w, r)
		return
	}
	if got := r.Header.Get("Authorization"); got != "Bearer "+testKey {
		s.t.Errorf("Authorization header %q", got)
	}
	if ct := r.Header.Get("Content-Type"); ct != "application/json" {
		s.t.Errorf("Content-Type %q", ct)
	}
	var raw map[string]json.RawMessage
	body, _ := io.ReadAll(r.Body)
	if err := json.Unmarshal(body, &raw); err != nil {
		s.t.Errorf("body is not JSON: %v", err)
	}
	for k := range raw {
		switch k {
		case "model", "input", "encoding_format", "dimensions":
		default:
			s.t.Errorf("unexpected request field %q", k)
		}
	}
	var req openAIRequest
	json.Unmarshal(body, &req)
	s.mu.Lock()
	s.requests = append(s.requests, req)
	s.mu.Unlock()
	if s.fail != nil && s.fail(w, n, req) {
		return
	}
	if req.Model == "" || len(req.Input) == 0 || len(req.Input) > openAIMaxInputs {
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprint(w, `{"error":{"message":"bad input","type":"invalid_request_error","code":null}}`)
		return
	}
	dim := s.dim
	if req.Dimensions > 0 {
		dim = req.Dimensions
	}
	type item struct {
		Object    string `json:"object"`
		Index     int    `json:"index"`
		Embedding any    `json:"embedding"`
	}
	var data []item
	for i, in := range req.Input {
		if in == "" {
			s.t.Errorf("empty input sent")
		}
		v := fakeVector(in, dim)
		var e any = v
		if s.base64 && req.EncodingFormat == "base64" {
			e = b64(v)
		}
		data = append(data, item{"embedding", i, e})
	}
	if s.reverse {
		for i, j := 0, len(data)-1; i < j; i, j = i+1, j-1 {
			data[i], data[j] = data[j], data[i]
		}
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{"object": "list", "data": data, "model": req.Model,
		"usage": map[string]int{"prompt_tokens": 1, "total_tokens": 1}})
}

// sleeps records the waits of a Remote instead of sleeping.
type sleeps struct {
	mu sync.Mutex
	d  []time.Duration
}

func (s *sleeps) sleep(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	s.d = append(s.d, d)
	s.mu.Unlock()
	return ctx.Err()
}

func newTestRemote(t *testing.T, cfg Config) (*Remote, *sleeps) {
	t.Helper()
	e, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	r := e.(*Remote)
	sl := &sleeps{}
	r.api.Retry.Sleep = sl.sleep
	return r, sl
}

func startOpenAI(t *testing.T, s *openAIServer) (*openAIServer, Config) {
	s.t = t
	if s.dim == 0 {
		s.dim = 8
	}
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	return s, Config{Provider: "openai", Endpoint: srv.URL + "/v1", Model: "test-embed", Dimensions: 0, APIKey: testKey}
}

func withDims(c Config, d int) Config { c.Dimensions = d; return c }

func checkVectors(t *testing.T, got [][]float32, texts []string, dim int) {
	t.Helper()
	if len(got) != len(texts) {
		t.Fatalf("%d vectors for %d texts", len(got), len(texts))
	}
	for i, text := range texts {
		want := unit(fakeVector(text, dim))
		if strings.TrimSpace(text) == "" {
			want = make([]float32, dim)
		}
		if len(got[i]) != dim {
			t.Fatalf("vector %d has %d dimensions, want %d", i, len(got[i]), dim)
		}
		for j := range want {
			if math.Abs(float64(got[i][j]-want[j])) > 1e-6 {
				t.Fatalf("vector %d (%q) differs at %d: %v, want %v", i, text, j, got[i][j], want[j])
			}
		}
	}
}

// The fake service stands in for OpenAI: request shape, base64 answers.
