package embed

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/bcindex/bcindex/internal/httpapi"
)

// Remote is an embedder served over HTTP: an OpenAI-compatible
// `POST {endpoint}/embeddings` (OpenAI, Volcengine Ark, vLLM, Hugging Face
// TEI, LM Studio, llama.cpp server) or Ollama's `POST {endpoint}/api/embed`.
//
// One Embed call is cut into batches within the provider's limits, sent with
// bounded concurrency shared by every call on the same Remote, and retried
// on 429 (honouring Retry-After) and 5xx with capped exponential backoff and
// jitter. A batch that still fails fails the whole call: the indexer then
// publishes nothing for it, and its blobs stay pending.
type Remote struct {
	provider string
	model    string
	endpoint string // base URL without a trailing slash
	dim      int
	sendDims bool   // put "dimensions" in the request (configured explicitly)
	key      string // never logged nor shown; redacted from server messages
	id       string

	api           *httpapi.Client
	sem           chan struct{}
	maxInputs     int         // inputs per request
	maxBatchBytes int         // bytes of input text per request
	maxInputBytes int         // longer inputs are cut (OpenAI: 8192 tokens per input); 0: never
	floatOnly     atomic.Bool // the server refused encoding_format "base64"
	// quota holds the last insufficient_quota error: calls within
	// quotaHold of it fail at once instead of spending requests (a
	// long-running MCP server recovers once the account is topped up).
	quota atomic.Pointer[quotaState]
}

type quotaState struct {
	err error
	at  time.Time
}

const quotaHold = time.Minute

var _ Limited = (*Remote)(nil)

// Request limits. OpenAI allows 2048 inputs of at most 8192 tokens each and
// 300k tokens per request; counting one token per byte keeps every request
// within them whatever the tokenizer.
const (
	openAIMaxInputs     = 2048
	openAIMaxInputBytes = 8192
	remoteMaxBatchBytes = 256 << 10
	ollamaMaxInputs     = 256
	defaultConcurrency  = 4
	defaultTimeout      = 2 * time.Minute
)

func newRemote(provider string, cfg Config) (*Remote, error) {
	if err := checkModelName(cfg.Model); err != nil {
		return nil, err
	}
	dim, err := modelDim(provider, cfg.Model, cfg.Dimensions)
	probe := err != nil && cfg.Dims != nil
	if err != nil && !probe {
		return nil, err
	}
	ep := cfg.Endpoint
	if ep == "" {
		ep = DefaultOpenAIEndpoint
		if provider == ProviderOllama {
			ep = DefaultOllamaEndpoint
		}
	}
	ep, err = cleanEndpoint(provider, ep)
	if err != nil {
		return nil, err
	}
	conc := cfg.Concurrency
	if conc == 0 {
		conc = defaultConcurrency
	}
	timeout := cfg.Timeout
	if timeout == 0 {
		timeout = defaultTimeout
	}
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.MaxIdleConnsPerHost = conc
	r := &Remote{
		provider:      provider,
		model:         cfg.Model,
		endpoint:      ep,
		dim:           dim,
		sendDims:      cfg.Dimensions > 0,
		key:           apiKey(provider, cfg),
		id:            provider + ":" + cfg.Model + ":" + strconv.Itoa(dim),
		sem:           make(chan struct{}, conc),
		maxInputs:     openAIMaxInputs,
		maxBatchBytes: remoteMaxBatchBytes,
		maxInputBytes: openAIMaxInputBytes,
	}
	r.api = &httpapi.Client{HTTP: &http.Client{Timeout: timeout, Transport: tr}, Key: r.key, Retry: httpapi.DefaultPolicy(), Describe: r.describe}
	if provider == ProviderOllama {
		r.maxInputs, r.maxInputBytes = ollamaMaxInputs, 0 // Ollama truncates to the model's context itself
	}
	if probe {
		d, err := r.probeDim(cfg.Dims)
		if err != nil {
			return nil, err
		}
		r.useProbedDim(d)
	}
	return r, nil
}

// cleanEndpoint validates a base URL and drops a trailing slash or a
// trailing API path the user may have pasted with it.
func cleanEndpoint(provider, ep string) (string, error) {
	s, err := httpapi.CleanBaseURL(ep, "/embeddings", "/api/embed")
	msg := ""
	switch {
	case errors.Is(err, httpapi.ErrNotHTTP):
		msg = fmt.Sprintf("%q: want a base URL such as %s", ep, map[string]string{ProviderOpenAI: DefaultOpenAIEndpoint, ProviderOllama: DefaultOllamaEndpoint}[provider])
	case errors.Is(err, httpapi.ErrCredentials):
		msg = "must not contain credentials; put the API key in the environment variable " + EnvAPIKey
	case errors.Is(err, httpapi.ErrQuery):
		msg = fmt.Sprintf("%q: want a base URL without query or fragment", httpapi.Redacted(ep))
	}
	if err != nil {
		return "", &ConfigError{Key: "bcindex.endpoint", Msg: msg}
	}
	return s, nil
}

// ID returns "<provider>:<model>:<dimension>", e.g.
// "openai:text-embedding-3-small:1536".
func (r *Remote) ID() string { return r.id }

// Dim returns the configured or well-known vector length of the model.
func (r *Remote) Dim() int { return r.dim }

// Limits returns the provider's request limits (inputs, and bytes of text
// standing for tokens) and the configured requests in flight.
func (r *Remote) Limits() Limits {
	return Limits{Inputs: r.maxInputs, Bytes: r.maxBatchBytes, InFlight: cap(r.sem)}
}

// Endpoint returns the base URL requests go to.
func (r *Remote) Endpoint() string { return r.endpoint }

// Embed implements Embedder. Texts that are empty or white space get the
// zero vector without a request (services reject empty inputs).
func (r *Remote) Embed(ctx context.Context, texts []string, role Role) ([][]float32, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("embed %s: %w", r.id, err)
	}
	out := make([][]float32, len(texts))
	var idx []int
	var inputs []string
	for i, t := range texts {
		if strings.TrimSpace(t) == "" {
			out[i] = make([]float32, r.dim)
			continue
		}
		if r.maxInputBytes > 0 && len(t) > r.maxInputBytes {
			t = truncateUTF8(t, r.maxInputBytes)
		}
		idx = append(idx, i)
		inputs = append(inputs, t)
	}
	if len(inputs) == 0 {
		return out, nil
	}
	if q := r.quota.Load(); q != nil && time.Since(q.at) < quotaHold {
		return nil, fmt.Errorf("embed %s: %w", r.id, q.err)
	}
	if r.provider == ProviderOpenAI && r.key == "" && isOpenAIHost(r.endpoint) {
		return nil, fmt.Errorf("embed %s: %w: no API key; set the environment variable %s (or %s)", r.id, ErrAuth, EnvAPIKey, EnvOpenAIAPIKey)
	}
	g, gctx := errgroup.WithContext(ctx)
	for _, b := range r.batches(inputs) {
		acquired := false
		select {
		case r.sem <- struct{}{}:
			acquired = true
		case <-gctx.Done():
		}
		if !acquired {
			break
		}
		g.Go(func() error {
			defer func() { <-r.sem }()
			vecs, err := r.embedBatch(gctx, inputs[b[0]:b[1]])
			if err != nil {
				return err
			}
			for k, v := range vecs {
				normalize(v)
				out[idx[b[0]+k]] = v
			}
			return nil
		})
	}
	err := g.Wait()
	if err == nil {
		err = ctx.Err()
	}
	if errors.Is(err, ErrQuota) {
		r.quota.Store(&quotaState{err: err, at: time.Now()})
	}
	if err != nil {
		return nil, fmt.Errorf("embed %s: %w", r.id, err)
	}
	return out, nil
}

// batches cuts inputs into [start, end) ranges within the request limits.
func (r *Remote) batches(inputs []string) [][2]int {
	var bs [][2]int
	start, size := 0, 0
	for i, t := range inputs {
		if i > start && (i-start >= r.maxInputs || size+len(t) > r.maxBatchBytes) {
			bs = append(bs, [2]int{start, i})
			start, size = i, 0
		}
		size += len(t)
	}
	return append(bs, [2]int{start, len(inputs)})
}

// embedBatch sends one request and checks the answer.
func (r *Remote) embedBatch(ctx context.Context, inputs []string) ([][]float32, error) {
	var vecs [][]float32
	var err error
	if r.provider == ProviderOllama {
		vecs, err = r.ollamaBatch(ctx, inputs)
	} else {
		vecs, err = r.openAIBatch(ctx, inputs)
	}
	if err != nil {
		return nil, err
	}
	if len(vecs) != len(inputs) {
		return nil, fmt.Errorf("%s returned %d embeddings for %d inputs", r.provider, len(vecs), len(inputs))
	}
	for _, v := range vecs {
		if len(v) != r.dim {
			return nil, fmt.Errorf("%s model %q returned %d dimensions, expected %d: set git config bcindex.dimensions %d (this changes the model ID and re-embeds)", r.provider, r.model, len(v), r.dim, len(v))
		}
		for _, x := range v {
			if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
				return nil, fmt.Errorf("%s model %q returned a non-finite value", r.provider, r.model)
			}
		}
	}
	return vecs, nil
}

// post sends body as JSON to endpoint+path, retrying what is worth
// retrying, and returns the body of the 2xx answer.
func (r *Remote) post(ctx context.Context, path string, body any) ([]byte, error) {
	return r.api.Post(ctx, r.endpoint+path, body)
}

// describe classifies a failed answer: an exhausted quota and rejected
// credentials get their own errors and hints.
func (r *Remote) describe(se *httpapi.StatusError) error {
	return &httpError{provider: r.provider, url: se.URL, status: se.Status, code: se.Code, msg: se.Msg, kind: se.Kind(ErrQuota, ErrAuth)}
}

func isOpenAIHost(endpoint string) bool {
	u, err := url.Parse(endpoint)
	return err == nil && u.Hostname() == "api.openai.com"
}

// truncateUTF8 cuts s to at most n bytes without splitting a rune.
func truncateUTF8(s string, n int) string { return httpapi.TruncateUTF8(s, n) }
