package indexer

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/internal/testkit/gittest"
	"github.com/bcindex/bcindex/internal/testkit/indextest"
)

// embeddingsServer stands in for OpenAI's embeddings service: it speaks
// the documented wire format of POST /v1/embeddings (a JSON body with
// model, input and encoding_format; an answer whose data holds one
// {"object":"embedding","index":i,"embedding":[...]} per input), answers
// each text with a vector derived from its SHA-256, and counts requests
// and inputs. delay stands in for the network and the service's work.
type embeddingsServer struct {
	t     testing.TB
	delay time.Duration

	mu       sync.Mutex
	requests int
	inputs   int
	bytes    int
	largest  int // inputs of the largest request
}

func (s *embeddingsServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.URL.Path != "/v1/embeddings" {
		s.t.Errorf("request %s %s, want POST /v1/embeddings", r.Method, r.URL.Path)
		http.NotFound(w, r)
		return
	}
	var req struct {
		Model          string   `json:"model"`
		Input          []string `json:"input"`
		EncodingFormat string   `json:"encoding_format"`
		Dimensions     int      `json:"dimensions"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.Model == "" || len(req.Input) == 0 || len(req.Input) > 2048 {
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprint(w, `{"error":{"message":"bad input","type":"invalid_request_error","code":null}}`)
		return
	}
	s.mu.Lock()
	s.requests++
	s.inputs += len(req.Input)
	for _, in := range req.Input {
		s.bytes += len(in)
	}
	s.largest = max(s.largest, len(req.Input))
	s.mu.Unlock()
	time.Sleep(s.delay)
	type item struct {
		Object    string    `json:"object"`
		Index     int       `json:"index"`
		Embedding []float32 `json:"embedding"`
	}
	data := make([]item, len(req.Input))
	for i, in := range req.Input {
		sum := sha256.Sum256([]byte(in))
		v := make([]float32, req.Dimensions)
		for d := range v {
			v[d] = float32(binary.LittleEndian.Uint16(sum[2*d%32:])) - math.MaxUint16/2
		}
		data[i] = item{"embedding", i, v}
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{"object": "list", "data": data, "model": req.Model,
		"usage": map[string]int{"prompt_tokens": 1, "total_tokens": 1}})
}

// counts returns the requests and inputs so far and starts again.
func (s *embeddingsServer) counts() (requests, inputs, bytes, largest int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	requests, inputs, bytes, largest = s.requests, s.inputs, s.bytes, s.largest
	s.requests, s.inputs, s.bytes, s.largest = 0, 0, 0, 0
	return
}

// remoteEmbedder returns an OpenAI-compatible embedder served by s.
func remoteEmbedder(t testing.TB, s *embeddingsServer) embed.Embedder {
	s.t = t
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	emb, err := embed.New(embed.Config{Provider: embed.ProviderOpenAI, Endpoint: srv.URL + "/v1", Model: "test-embed", Dimensions: 8, APIKey: "test-key"})
	if err != nil {
		t.Fatal(err)
	}
	return emb
}

// TestRemoteRequestsCarryManyBlobs: a repository of many small files is
// embedded by a remote provider in requests filled up to its limits
// (embed.Limited), not one per blob, with the same vectors.
func TestRemoteRequestsCarryManyBlobs(t *testing.T) {
	const files = 500
	// A loaded machine pauses the stream of blobs, and a pause sends a
	// call early; without the waits only full calls and the last go out.
	idle, maxWait := embedIdle, embedMaxWait
	embedIdle, embedMaxWait = time.Hour, time.Hour
	t.Cleanup(func() { embedIdle, embedMaxWait = idle, maxWait })
	r := gittest.New(t)
	r.Commit("init", manyFiles(files))
	srv := &embeddingsServer{}
	emb := remoteEmbedder(t, srv)
	index := func(batch int) *gitindex.Repo {
		os.RemoveAll(filepath.Join(r.Dir, ".git", "bcindex"))
		repo, err := gitindex.OpenRepo(r.Dir)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := NewIndexer(repo, Options{Embedder: emb, EmbedBatch: batch}).Index(context.Background(), []string{"HEAD"}, 0); err != nil {
			t.Fatal(err)
		}
		return repo
	}
	perBlob := indextest.Vectors(t, index(1), emb.ID())
	single, inputs, _, _ := srv.counts()
	if single != files {
		t.Fatalf("one call per blob made %d requests for %d files", single, files)
	}
	merged := indextest.Vectors(t, index(0), emb.ID())
	requests, again, bytes, largest := srv.counts()
	lim := emb.(embed.Limited).Limits()
	least := max((inputs+lim.Inputs-1)/lim.Inputs, (bytes+lim.Bytes-1)/lim.Bytes)
	t.Logf("%d inputs (%d bytes): %d requests one blob each, %d filled across blobs (largest %d inputs); at least %d", inputs, bytes, single, requests, largest, least)
	if again != inputs {
		t.Fatalf("filled requests carried %d inputs, one per blob %d", again, inputs)
	}
	// Whole blobs fill the calls, so one more call than the bound may be
	// needed where a blob does not fit the rest of a call.
	if requests > least+1 {
		t.Errorf("%d requests for %d inputs; want at most %d", requests, inputs, least+1)
	}
	if len(merged) == 0 || !reflect.DeepEqual(perBlob, merged) {
		t.Fatalf("vectors differ: %d chunks one blob per request, %d filled", len(perBlob), len(merged))
	}
}

// BenchmarkRemoteSmallFiles indexes a repository of 500 small files with a
// remote provider whose every request costs 20 ms (an in-process server
// speaking OpenAI's wire format), and reports the requests it took.
func BenchmarkRemoteSmallFiles(b *testing.B) {
	r := gittest.New(b)
	r.Commit("init", manyFiles(500))
	srv := &embeddingsServer{delay: 20 * time.Millisecond}
	emb := remoteEmbedder(b, srv)
	for _, c := range remoteBenchCases {
		b.Run(c.name, func(b *testing.B) {
			requests := 0
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				os.RemoveAll(filepath.Join(r.Dir, ".git", "bcindex"))
				repo, err := gitindex.OpenRepo(r.Dir)
				if err != nil {
					b.Fatal(err)
				}
				srv.counts()
				opts := c.opts
				opts.Embedder = emb
				b.StartTimer()
				if _, err := NewIndexer(repo, opts).Index(context.Background(), []string{"HEAD"}, 0); err != nil {
					b.Fatal(err)
				}
				n, _, _, _ := srv.counts()
				requests += n
			}
			b.ReportMetric(float64(requests)/float64(b.N), "requests/op")
		})
	}
}

// remoteBenchCases: one blob per call, and what `git bcindex index` does.
var remoteBenchCases = []struct {
	name string
	opts Options
}{
	{"per-blob", Options{EmbedBatch: 1}},
	{"cli", Options{}},
}
