package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/internal/testkit/gittest"
)

const fakeKey = "sk-fake-key-for-tests-0123456789"

// fakeEmbeddings stands in for a real OpenAI-compatible embeddings service
// (POST /v1/embeddings, float answers); mode switches it to failing.
type fakeEmbeddings struct {
	t     *testing.T
	mode  atomic.Value // "ok", "quota", "baddim"
	calls atomic.Int64
}

func (f *fakeEmbeddings) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.calls.Add(1)
	if r.URL.Path != "/v1/embeddings" || r.Header.Get("Authorization") != "Bearer "+fakeKey {
		f.t.Errorf("request %s with Authorization %q", r.URL.Path, r.Header.Get("Authorization"))
	}
	var req struct {
		Model      string   `json:"model"`
		Input      []string `json:"input"`
		Dimensions int      `json:"dimensions"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		f.t.Errorf("request body: %v", err)
	}
	switch f.mode.Load() {
	case "quota":
		w.WriteHeader(http.StatusTooManyRequests)
		fmt.Fprint(w, `{"error":{"message":"You exceeded your current quota.","type":"insufficient_quota","code":"insufficient_quota"}}`)
		return
	case "baddim":
		req.Dimensions = 3
	}
	if req.Dimensions == 0 {
		req.Dimensions = 8 // the fake model's own length, when not asked for another
	}
	var data []map[string]any
	for i, in := range req.Input {
		h := fnv.New64a()
		h.Write([]byte(in))
		s := h.Sum64()
		v := make([]float32, req.Dimensions)
		for d := range v {
			s = s*6364136223846793005 + 1442695040888963407
			v[d] = float32(int64(s>>40)%1000) / 100
		}
		data = append(data, map[string]any{"index": i, "embedding": v})
	}
	json.NewEncoder(w).Encode(map[string]any{"data": data})
}

func statusJSON(t *testing.T, dir string) map[string]any {
	t.Helper()
	code, out, errOut := runCLI(t, dir, "status", "--json")
	if code != 0 {
		t.Fatalf("status exit %d: %s", code, errOut)
	}
	var st map[string]any
	if err := json.Unmarshal([]byte(out), &st); err != nil {
		t.Fatalf("status JSON %q: %v", out, err)
	}
	return st
}

func setupRemote(t *testing.T) (*gittest.Repo, *fakeEmbeddings) {
	t.Helper()
	f := &fakeEmbeddings{t: t}
	f.mode.Store("ok")
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	t.Setenv("BCINDEX_API_KEY", fakeKey)
	r := gittest.New(t)
	r.Commit("init", map[string]string{"store/repo.go": sample, "README.md": "# Store\n\nOpens repositories.\n"})
	r.Git("config", "bcindex.embedder", "openai")
	r.Git("config", "bcindex.endpoint", srv.URL+"/v1")
	r.Git("config", "bcindex.model", "fake-embed")
	r.Git("config", "bcindex.dimensions", "8")
	return r, f
}

// The fake service stands in for an OpenAI-compatible provider: index,
// status and search go through it; the model ID names the model and the
// dimension, and changing the dimension is a new model whose vectors are
// computed on the next index.
func TestRemoteEmbedderEndToEnd(t *testing.T) {
	r, f := setupRemote(t)
	code, out, errOut := runCLI(t, r.Dir, "index")
	if code != 0 {
		t.Fatalf("index exit %d\n%s\n%s", code, out, errOut)
	}
	st := statusJSON(t, r.Dir)
	if st["model"] != "openai:fake-embed:8" || st["chunks_with_vectors"] == float64(0) || st["pending_blobs"] != float64(0) {
		t.Errorf("status %v", st)
	}
	_, out, _ = runCLI(t, r.Dir, "status")
	if !strings.Contains(out, "openai:fake-embed:8") {
		t.Errorf("status does not show the model:\n%s", out)
	}
	code, out, errOut = runCLI(t, r.Dir, "search", "--mode", "vector", "--json", "open the repository")
	if code != 0 || !strings.Contains(out, "store/repo.go") {
		t.Errorf("vector search exit %d: %s %s", code, out, errOut)
	}
	if f.calls.Load() == 0 {
		t.Fatal("the provider was never called")
	}
	// The key is in no file of the index.
	filepath.WalkDir(filepath.Join(r.Dir, ".git", "bcindex"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if b, _ := os.ReadFile(p); bytes.Contains(b, []byte(fakeKey)) {
				t.Errorf("%s holds the API key", p)
			}
		}
		return nil
	})

	r.Git("config", "bcindex.dimensions", "16")
	st = statusJSON(t, r.Dir)
	if st["model"] != "openai:fake-embed:16" || st["chunks_with_vectors"] != float64(0) {
		t.Errorf("after changing dimensions: %v", st)
	}
	if code, _, errOut := runCLI(t, r.Dir, "index"); code != 0 {
		t.Fatalf("re-index: %s", errOut)
	}
	if st = statusJSON(t, r.Dir); st["chunks_with_vectors"] == float64(0) {
		t.Errorf("after re-index: %v", st)
	}
	r.Git("config", "bcindex.model", "other-embed")
	if st = statusJSON(t, r.Dir); st["model"] != "openai:other-embed:16" {
		t.Errorf("after changing model: %v", st)
	}
}

// The fake service stands in for a provider that fails: with
// insufficient_quota, or with vectors of the wrong dimension, index fails
// with a clear message, publishes nothing for the failed blobs (they stay
// pending), and a later run with the service back finishes the job.
func TestEmbedFailureLeavesBlobsPending(t *testing.T) {
	for _, c := range []struct{ mode, want string }{
		{"quota", "no quota left"},
		{"baddim", "bcindex.dimensions 3"},
	} {
		t.Run(c.mode, func(t *testing.T) {
			r, f := setupRemote(t)
			f.mode.Store(c.mode)
			code, out, errOut := runCLI(t, r.Dir, "index")
			if code != exitError || !strings.Contains(errOut, c.want) || strings.Contains(errOut+out, fakeKey) {
				t.Fatalf("index exit %d\nstdout: %s\nstderr: %s", code, out, errOut)
			}
			st := statusJSON(t, r.Dir)
			if st["indexed"] != false || st["pending_blobs"] != st["blobs"] || st["chunks_with_vectors"] != float64(0) {
				t.Errorf("after a failed run: %v", st)
			}
			if c.mode == "quota" && f.calls.Load() > 2 {
				t.Errorf("insufficient_quota retried: %d calls", f.calls.Load())
			}
			f.mode.Store("ok")
			if code, _, errOut := runCLI(t, r.Dir, "index"); code != 0 {
				t.Fatalf("index with the service back: %s", errOut)
			}
			if st := statusJSON(t, r.Dir); st["indexed"] != true || st["pending_blobs"] != float64(0) || st["chunks_with_vectors"] == float64(0) {
				t.Errorf("after the second run: %v", st)
			}
		})
	}
}

// A misconfigured embedder stops every command with the key to fix.
func TestEmbedderConfigErrors(t *testing.T) {
	cases := []struct {
		config [][2]string
		want   string
	}{
		{[][2]string{{"bcindex.embedder", "cohere"}}, "git config bcindex.embedder"},
		{[][2]string{{"bcindex.embedder", "openai"}}, "git config bcindex.model: is not set"},
		{[][2]string{{"bcindex.embedder", "openai"}, {"bcindex.model", "my-embedder"}, {"bcindex.endpoint", "http://127.0.0.1:1/v1"}}, "check that http://127.0.0.1:1/v1 answers"},
		{[][2]string{{"bcindex.embedder", "ollama"}, {"bcindex.model", "m"}, {"bcindex.dimensions", "many"}}, "git config bcindex.dimensions \"many\""},
		{[][2]string{{"bcindex.embedder", "ollama"}, {"bcindex.model", "m"}, {"bcindex.dimensions", "8"}, {"bcindex.endpoint", "localhost:11434"}}, "git config bcindex.endpoint"},
		{[][2]string{{"bcindex.embedder", "model2vec"}, {"bcindex.model", "no/such/dir"}}, "git config bcindex.model: model2vec"},
		{[][2]string{{"bcindex.model", "text-embedding-3-small"}}, "set bcindex.embedder to openai"},
		{[][2]string{{"bcindex.apiKey", "sk-in-config"}}, "API keys are not read from git config"},
	}
	for _, c := range cases {
		r := gittest.New(t)
		r.Commit("init", map[string]string{"a.go": sample})
		for _, kv := range c.config {
			r.Git("config", kv[0], kv[1])
		}
		for _, cmd := range []string{"status", "index"} {
			code, _, errOut := runCLI(t, r.Dir, cmd)
			if code != exitError || !strings.Contains(errOut, c.want) || strings.Contains(errOut, "sk-in-config") {
				t.Errorf("%v: %s exit %d, stderr %q, want %q", c.config, cmd, code, errOut, c.want)
			}
		}
	}
	// bcindex.vectors false needs no embedder at all.
	r := gittest.New(t)
	r.Commit("init", map[string]string{"a.go": sample})
	r.Git("config", "bcindex.embedder", "openai")
	r.Git("config", "bcindex.vectors", "false")
	if code, _, errOut := runCLI(t, r.Dir, "index"); code != 0 {
		t.Errorf("vectors off: %s", errOut)
	}
}

func TestEmbedConfigModel2VecPath(t *testing.T) {
	get := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	cfg, err := embedConfig(get(map[string]string{"embedder": "model2vec", "model": "models/potion"}), "/repo")
	if err != nil || cfg.Model != filepath.Join("/repo", "models/potion") {
		t.Errorf("relative path: %+v %v", cfg, err)
	}
	home, _ := os.UserHomeDir()
	cfg, _ = embedConfig(get(map[string]string{"embedder": "model2vec", "model": "~/m"}), "/repo")
	if cfg.Model != filepath.Join(home, "m") {
		t.Errorf("home path: %q", cfg.Model)
	}
	cfg, _ = embedConfig(get(map[string]string{"embedder": "openai", "model": "a/b", "concurrency": "2"}), "/repo")
	if cfg.Model != "a/b" || cfg.Concurrency != 2 {
		t.Errorf("openai model name changed: %+v", cfg)
	}
}

func TestEmbedHint(t *testing.T) {
	_, err := embed.New(embed.Config{Provider: "nope"})
	if h := embedHint(fmt.Errorf("embedder: %w", err)); !strings.Contains(h, "git config bcindex.embedder") {
		t.Errorf("config hint %q", h)
	}
	if h := embedHint(fmt.Errorf("x: %w", embed.ErrQuota)); !strings.Contains(h, "pending") {
		t.Errorf("quota hint %q", h)
	}
	if h := embedHint(fmt.Errorf("x: %w", embed.ErrAuth)); !strings.Contains(h, embed.EnvAPIKey) {
		t.Errorf("auth hint %q", h)
	}
	if h := embedHint(fmt.Errorf("other")); h != "" {
		t.Errorf("hint for another error: %q", h)
	}
}

// A model the table does not know, without bcindex.dimensions: the first
// command asks the endpoint (the in-process fake speaking OpenAI's wire
// format) once, keeps the answer in the bcindex directory, and later
// commands do not ask again.
func TestRemoteDimensionsProbed(t *testing.T) {
	r, f := setupRemote(t)
	r.Git("config", "--unset", "bcindex.dimensions")
	code, _, errOut := runCLI(t, r.Dir, "status")
	if code != 0 {
		t.Fatalf("status: exit %d %s", code, errOut)
	}
	if n := f.calls.Load(); n != 1 {
		t.Fatalf("first command made %d requests, want 1 probe", n)
	}
	b, err := os.ReadFile(filepath.Join(r.Dir, ".git", "bcindex", "dimensions.json"))
	if err != nil || !strings.Contains(string(b), "fake-embed\": 8") {
		t.Fatalf("dimensions.json: %s (%v)", b, err)
	}
	if st := statusJSON(t, r.Dir); st["model"] != "openai:fake-embed:8" {
		t.Errorf("model after probe: %v", st["model"])
	}
	if n := f.calls.Load(); n != 1 {
		t.Errorf("later commands asked again: %d requests", n)
	}
	if code, _, errOut := runCLI(t, r.Dir, "index"); code != 0 {
		t.Fatalf("index: %s", errOut)
	}
}
