package embed

import (
	"context"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
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
	r.retry.sleep = sl.sleep
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
func TestOpenAIRequestShapeBase64(t *testing.T) {
	s, cfg := startOpenAI(t, &openAIServer{base64: true})
	r, _ := newTestRemote(t, withDims(cfg, 8))
	texts := []string{"func Parse() {}", "", "read the config file", "  \n"}
	got, err := r.Embed(context.Background(), texts, RoleDocument)
	if err != nil {
		t.Fatal(err)
	}
	checkVectors(t, got, texts, 8)
	if len(s.requests) != 1 {
		t.Fatalf("%d requests, want 1", len(s.requests))
	}
	req := s.requests[0]
	if req.Model != "test-embed" || req.EncodingFormat != "base64" || req.Dimensions != 8 ||
		strings.Join(req.Input, "|") != "func Parse() {}|read the config file" {
		t.Errorf("request = %+v", req)
	}
	if r.ID() != "openai:test-embed:8" {
		t.Errorf("ID = %q", r.ID())
	}
}

// The fake service stands in for an OpenAI-compatible server that answers
// float arrays and does not know "dimensions" unless configured.
func TestOpenAIFloatAnswersAndNoDimensions(t *testing.T) {
	s, cfg := startOpenAI(t, &openAIServer{dim: 1536})
	cfg.Model = "text-embedding-3-small"
	r, _ := newTestRemote(t, cfg)
	texts := []string{"alpha", "beta"}
	got, err := r.Embed(context.Background(), texts, RoleQuery)
	if err != nil {
		t.Fatal(err)
	}
	checkVectors(t, got, texts, 1536)
	if s.requests[0].Dimensions != 0 {
		t.Errorf("dimensions sent although not configured: %d", s.requests[0].Dimensions)
	}
	if r.ID() != "openai:text-embedding-3-small:1536" {
		t.Errorf("ID = %q", r.ID())
	}
}

// The fake service stands in for a server that rejects encoding_format
// "base64" with 400: the embedder switches to floats once and for all.
func TestOpenAIBase64Refused(t *testing.T) {
	s, cfg := startOpenAI(t, &openAIServer{fail: func(w http.ResponseWriter, n int, req openAIRequest) bool {
		if req.EncodingFormat == "base64" {
			w.WriteHeader(http.StatusBadRequest)
			fmt.Fprint(w, `{"error":{"message":"encoding_format base64 not supported","type":"invalid_request_error"}}`)
			return true
		}
		return false
	}})
	r, _ := newTestRemote(t, withDims(cfg, 8))
	for range 2 {
		got, err := r.Embed(context.Background(), []string{"x"}, RoleDocument)
		if err != nil {
			t.Fatal(err)
		}
		checkVectors(t, got, []string{"x"}, 8)
	}
	var formats []string
	for _, q := range s.requests {
		formats = append(formats, q.EncodingFormat)
	}
	if strings.Join(formats, ",") != "base64,float,float" {
		t.Errorf("encodings requested: %v", formats)
	}
}

// The fake service stands in for OpenAI: batches stay within the input
// count and byte budgets, and answers listed out of order are put back by
// their index.
func TestOpenAIBatching(t *testing.T) {
	s, cfg := startOpenAI(t, &openAIServer{base64: true, reverse: true})
	r, _ := newTestRemote(t, withDims(cfg, 8))
	r.maxInputs, r.maxBatchBytes = 3, 40
	var texts []string
	for i := range 10 {
		texts = append(texts, fmt.Sprintf("text number %d", i)) // 13–14 bytes
	}
	texts = append(texts, strings.Repeat("y", 100)) // over the byte budget: alone
	got, err := r.Embed(context.Background(), texts, RoleDocument)
	if err != nil {
		t.Fatal(err)
	}
	checkVectors(t, got, texts, 8)
	total := 0
	for _, q := range s.requests {
		size := 0
		for _, in := range q.Input {
			size += len(in)
		}
		if len(q.Input) > 3 || (len(q.Input) > 1 && size > 40) {
			t.Errorf("batch of %d inputs, %d bytes", len(q.Input), size)
		}
		total += len(q.Input)
	}
	if total != len(texts) || len(s.requests) < 5 {
		t.Errorf("%d inputs in %d requests", total, len(s.requests))
	}
	// Long inputs are cut to the per-input budget, on a rune boundary.
	r.maxInputBytes = 10
	s.requests = nil
	if _, err := r.Embed(context.Background(), []string{"ééééééééé"}, RoleDocument); err != nil {
		t.Fatal(err)
	}
	if in := s.requests[0].Input[0]; in != "ééééé" {
		t.Errorf("truncated input %q", in)
	}
}

// The fake service stands in for OpenAI rate limiting: 429 with
// Retry-After (seconds, then an HTTP date) is honoured, then success.
func TestOpenAIRetryAfter(t *testing.T) {
	date := time.Now().Add(3 * time.Second).UTC().Format(http.TimeFormat)
	_, cfg := startOpenAI(t, &openAIServer{fail: func(w http.ResponseWriter, n int, _ openAIRequest) bool {
		switch n {
		case 1:
			w.Header().Set("Retry-After", "7")
		case 2:
			w.Header().Set("Retry-After", date)
		default:
			return false
		}
		w.WriteHeader(http.StatusTooManyRequests)
		fmt.Fprint(w, `{"error":{"message":"Rate limit reached","type":"requests","code":"rate_limit_exceeded"}}`)
		return true
	}})
	r, sl := newTestRemote(t, withDims(cfg, 8))
	got, err := r.Embed(context.Background(), []string{"a"}, RoleDocument)
	if err != nil {
		t.Fatal(err)
	}
	checkVectors(t, got, []string{"a"}, 8)
	if len(sl.d) != 2 || sl.d[0] != 7*time.Second || sl.d[1] < 1*time.Second || sl.d[1] > 4*time.Second {
		t.Errorf("waits %v, want [7s ~3s]", sl.d)
	}
}

// The fake service stands in for a rate limit asking for longer than
// bcindex waits: the call fails at once with a clear error.
func TestOpenAIRetryAfterTooLong(t *testing.T) {
	_, cfg := startOpenAI(t, &openAIServer{fail: func(w http.ResponseWriter, n int, _ openAIRequest) bool {
		w.Header().Set("Retry-After", "3600")
		w.WriteHeader(http.StatusTooManyRequests)
		return true
	}})
	r, sl := newTestRemote(t, withDims(cfg, 8))
	_, err := r.Embed(context.Background(), []string{"a"}, RoleDocument)
	if err == nil || !strings.Contains(err.Error(), "retry after 1h0m0s") || len(sl.d) != 0 {
		t.Errorf("err = %v, waits %v", err, sl.d)
	}
}

// The fake service stands in for OpenAI having server errors: 5xx twice,
// then success, with growing jittered backoff between.
func TestOpenAI5xxThenSuccess(t *testing.T) {
	s, cfg := startOpenAI(t, &openAIServer{base64: true, fail: func(w http.ResponseWriter, n int, _ openAIRequest) bool {
		if n <= 2 {
			w.WriteHeader([]int{http.StatusServiceUnavailable, http.StatusInternalServerError}[n-1])
			fmt.Fprint(w, "upstream overloaded")
			return true
		}
		return false
	}})
	r, sl := newTestRemote(t, withDims(cfg, 8))
	got, err := r.Embed(context.Background(), []string{"a", "b"}, RoleDocument)
	if err != nil {
		t.Fatal(err)
	}
	checkVectors(t, got, []string{"a", "b"}, 8)
	if s.calls.Load() != 3 || len(sl.d) != 2 {
		t.Fatalf("%d calls, waits %v", s.calls.Load(), sl.d)
	}
	if sl.d[0] < 250*time.Millisecond || sl.d[0] >= 500*time.Millisecond || sl.d[1] < 500*time.Millisecond || sl.d[1] >= time.Second {
		t.Errorf("backoff waits %v, want [250ms,500ms) then [500ms,1s)", sl.d)
	}
}

// The fake service stands in for a service that keeps failing: attempts
// are bounded and the error says so.
func TestOpenAIGivesUp(t *testing.T) {
	s, cfg := startOpenAI(t, &openAIServer{fail: func(w http.ResponseWriter, n int, _ openAIRequest) bool {
		w.WriteHeader(http.StatusBadGateway)
		return true
	}})
	r, sl := newTestRemote(t, withDims(cfg, 8))
	_, err := r.Embed(context.Background(), []string{"a"}, RoleDocument)
	if err == nil || !strings.Contains(err.Error(), "502") || !strings.Contains(err.Error(), "gave up after 6 attempts") {
		t.Errorf("err = %v", err)
	}
	if s.calls.Load() != 6 || len(sl.d) != 5 {
		t.Errorf("%d calls, %d waits", s.calls.Load(), len(sl.d))
	}
}

// The fake service stands in for OpenAI answering insufficient_quota
// (HTTP 429, code "insufficient_quota"): not retried, typed error.
func TestOpenAIInsufficientQuota(t *testing.T) {
	s, cfg := startOpenAI(t, &openAIServer{fail: func(w http.ResponseWriter, n int, _ openAIRequest) bool {
		w.WriteHeader(http.StatusTooManyRequests)
		fmt.Fprint(w, `{"error":{"message":"You exceeded your current quota, please check your plan and billing details.","type":"insufficient_quota","param":null,"code":"insufficient_quota"}}`)
		return true
	}})
	r, sl := newTestRemote(t, withDims(cfg, 8))
	_, err := r.Embed(context.Background(), []string{"a"}, RoleDocument)
	if !errors.Is(err, ErrQuota) {
		t.Fatalf("err = %v, want ErrQuota", err)
	}
	if s.calls.Load() != 1 || len(sl.d) != 0 {
		t.Errorf("quota error retried: %d calls", s.calls.Load())
	}
	if !strings.Contains(err.Error(), "no quota left") || strings.Contains(err.Error(), testKey) {
		t.Errorf("message: %v", err)
	}
	// Later calls fail at once, without a request.
	if _, err := r.Embed(context.Background(), []string{"b"}, RoleDocument); !errors.Is(err, ErrQuota) || s.calls.Load() != 1 {
		t.Errorf("second call: %v after %d calls", err, s.calls.Load())
	}
	// A minute later the service is asked again.
	r.quota.Store(&quotaState{err: ErrQuota, at: time.Now().Add(-2 * quotaHold)})
	if _, err := r.Embed(context.Background(), []string{"c"}, RoleDocument); !errors.Is(err, ErrQuota) || s.calls.Load() != 2 {
		t.Errorf("after the hold: %v after %d calls", err, s.calls.Load())
	}
}

// The fake service stands in for OpenAI rejecting the key: it echoes the
// key, which never reaches the error; 401 is not retried.
func TestOpenAIAuthErrorRedactsKey(t *testing.T) {
	s, cfg := startOpenAI(t, &openAIServer{fail: func(w http.ResponseWriter, n int, _ openAIRequest) bool {
		w.WriteHeader(http.StatusUnauthorized)
		fmt.Fprintf(w, `{"error":{"message":"Incorrect API key provided: %s.","type":"invalid_request_error","code":"invalid_api_key"}}`, testKey)
		return true
	}})
	r, _ := newTestRemote(t, withDims(cfg, 8))
	_, err := r.Embed(context.Background(), []string{"a"}, RoleDocument)
	if !errors.Is(err, ErrAuth) || strings.Contains(err.Error(), testKey) || !strings.Contains(err.Error(), "[REDACTED]") || !strings.Contains(err.Error(), EnvAPIKey) {
		t.Errorf("err = %v", err)
	}
	if s.calls.Load() != 1 {
		t.Errorf("%d calls", s.calls.Load())
	}
}

// The fake service stands in for a broken OpenAI-compatible server:
// malformed JSON, wrong dimension, wrong count, bad indexes, bad base64.
func TestOpenAIMalformedAnswers(t *testing.T) {
	cases := []struct {
		name, body, want string
	}{
		{"malformed JSON", `{"data": [`, "decode response"},
		{"HTML", `<html>oops</html>`, "decode response"},
		{"wrong dimension", `{"data":[{"index":0,"embedding":[1,2,3]}]}`, "returned 3 dimensions, expected 8: set git config bcindex.dimensions 3"},
		{"too few", `{"data":[]}`, "returned 0 embeddings for 1 inputs"},
		{"bad index", `{"data":[{"index":5,"embedding":[1,2,3,4,5,6,7,8]}]}`, "index 5"},
		{"bad base64", `{"data":[{"index":0,"embedding":"!!!"}]}`, "base64"},
		{"ragged base64", `{"data":[{"index":0,"embedding":"AAAAAAA="}]}`, "whole number"},
		{"NaN", `{"data":[{"index":0,"embedding":"` + b64([]float32{float32(math.NaN()), 1, 1, 1, 1, 1, 1, 1}) + `"}]}`, "non-finite"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, cfg := startOpenAI(t, &openAIServer{fail: func(w http.ResponseWriter, n int, _ openAIRequest) bool {
				fmt.Fprint(w, c.body)
				return true
			}})
			r, _ := newTestRemote(t, withDims(cfg, 8))
			_, err := r.Embed(context.Background(), []string{"a"}, RoleDocument)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("err = %v, want %q", err, c.want)
			}
			if s.calls.Load() != 1 {
				t.Errorf("%d calls: a malformed answer must not be retried", s.calls.Load())
			}
		})
	}
	// Two inputs answered with the same index.
	_, cfg := startOpenAI(t, &openAIServer{fail: func(w http.ResponseWriter, n int, _ openAIRequest) bool {
		fmt.Fprint(w, `{"data":[{"index":0,"embedding":[1,2,3,4,5,6,7,8]},{"index":0,"embedding":[1,2,3,4,5,6,7,8]}]}`)
		return true
	}})
	r, _ := newTestRemote(t, withDims(cfg, 8))
	if _, err := r.Embed(context.Background(), []string{"a", "b"}, RoleDocument); err == nil || !strings.Contains(err.Error(), "repeated") {
		t.Errorf("duplicate index: err = %v", err)
	}
}

// The fake service stands in for a service too slow to answer: the client
// timeout fires, the request is retried a bounded number of times.
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
	r.retry.attempts = 2
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
	r.retry.sleep = sleepCtx // really wait
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

// ollamaServer stands in for the real Ollama server: POST /api/embed with
// {"model","input":[...]} answered by {"embeddings":[[...]]}.
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

func TestRetryAfterParsing(t *testing.T) {
	now := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	cases := []struct {
		h    map[string]string
		want time.Duration
		ok   bool
	}{
		{map[string]string{"Retry-After": "12"}, 12 * time.Second, true},
		{map[string]string{"Retry-After": "0"}, 0, true},
		{map[string]string{"Retry-After": now.Add(90 * time.Second).Format(http.TimeFormat)}, 90 * time.Second, true},
		{map[string]string{"Retry-After": now.Add(-time.Hour).Format(http.TimeFormat)}, 0, true},
		{map[string]string{"Retry-After-Ms": "250", "Retry-After": "9"}, 250 * time.Millisecond, true},
		{map[string]string{"Retry-After": "soon"}, 0, false},
		{map[string]string{"Retry-After": "-3"}, 0, false},
		{map[string]string{}, 0, false},
	}
	for _, c := range cases {
		h := http.Header{}
		for k, v := range c.h {
			h.Set(k, v)
		}
		d, ok := retryAfter(h, now)
		if d != c.want || ok != c.ok {
			t.Errorf("%v: %v %v, want %v %v", c.h, d, ok, c.want, c.ok)
		}
	}
}

func TestBackoffBounds(t *testing.T) {
	p := defaultRetry()
	for attempt := 1; attempt <= 10; attempt++ {
		want := min(p.base<<(attempt-1), p.max)
		for range 50 {
			d := p.backoff(attempt)
			if d < want/2 || d >= want {
				t.Fatalf("attempt %d: %v outside [%v, %v)", attempt, d, want/2, want)
			}
		}
	}
}

// IDs name provider, model and dimension, so vectors of different models
// or dimensions are never mixed; configuration mistakes name the key.
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
