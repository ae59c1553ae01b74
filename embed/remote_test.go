package embed

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strings"
	"testing"
	"time"
)

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
