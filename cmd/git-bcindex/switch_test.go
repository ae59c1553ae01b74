package main

import (
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/bcindex/bcindex/internal/testkit/gittest"
)

// TestModelSwitchIsNeverSilent indexes with the built-in model, then
// switches to another (an in-process server speaking the OpenAI
// embeddings wire format stands in for the provider): status says the new
// model's vectors are missing, search --no-index says so in one line, and
// a search computes them first, in requests that each carry many blobs.
func TestModelSwitchIsNeverSilent(t *testing.T) {
	f := &fakeEmbeddings{t: t}
	f.mode.Store("ok")
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	t.Setenv("BCINDEX_API_KEY", fakeKey)
	r := gittest.New(t)
	files := map[string]string{"store/repo.go": sample}
	const blobs = 30
	for i := 0; i < blobs; i++ {
		files[fmt.Sprintf("pkg/f%02d.go", i)] = fmt.Sprintf("package pkg\n\n// Handler%02d serves request kind %d.\nfunc Handler%02d() int {\n\treturn %d\n}\n", i, i, i, i)
	}
	r.Commit("init", files)
	if code, _, errOut := runCLI(t, r.Dir, "index"); code != 0 {
		t.Fatalf("index: %s", errOut)
	}
	if st := statusJSON(t, r.Dir); st["vectors_missing"] != false || st["chunks_with_vectors"] == float64(0) {
		t.Fatalf("status with the built-in model: %v", st)
	}

	r.Git("config", "bcindex.embedder", "openai")
	r.Git("config", "bcindex.endpoint", srv.URL+"/v1")
	r.Git("config", "bcindex.model", "fake-embed")
	r.Git("config", "bcindex.dimensions", "8")
	st := statusJSON(t, r.Dir)
	if st["vectors_missing"] != true || st["chunks_with_vectors"] != float64(0) || st["chunks_embeddable"] == float64(0) {
		t.Errorf("status after the switch: %v", st)
	}
	_, out, _ := runCLI(t, r.Dir, "status")
	if strings.Contains(out, "up to date") || !strings.Contains(out, "have no vectors for model openai:fake-embed:8") {
		t.Errorf("status after the switch says:\n%s", out)
	}
	code, _, errOut := runCLI(t, r.Dir, "search", "--no-index", "--mode", "vector", "open the repository")
	if lines := strings.Count(strings.TrimSpace(errOut), "\n") + 1; code != 1 || lines != 1 || !strings.Contains(errOut, "no vectors for model openai:fake-embed:8") || !strings.Contains(errOut, "git bcindex index") {
		t.Errorf("search --no-index after the switch: exit %d, stderr %q", code, errOut)
	}
	if n := f.calls.Load(); n > 1 {
		t.Fatalf("status and search --no-index called the provider %d times; only the query is embedded", n)
	}
	before := f.calls.Load()

	code, out, errOut = runCLI(t, r.Dir, "search", "--mode", "vector", "--json", "open the repository")
	if code != 0 || !strings.Contains(out, `"path"`) {
		t.Fatalf("vector search after the switch: exit %d\n%s\n%s", code, out, errOut)
	}
	var hit struct{ Path string }
	json.Unmarshal([]byte(strings.SplitN(out, "\n", 2)[0]), &hit)
	if hit.Path == "" {
		t.Errorf("no hit path in %s", out)
	}
	if n := f.calls.Load() - before - 1; n < 1 || n > 2 { // less the query's
		t.Errorf("computing the vectors of %d blobs took %d requests, want 1 or 2 (batched across blobs)", blobs+1, n)
	}
	st = statusJSON(t, r.Dir)
	if st["vectors_missing"] != false || st["chunks_with_vectors"] != st["chunks_embeddable"] {
		t.Errorf("status after the search: %v", st)
	}
	models, _ := st["vectors_by_model"].([]any)
	if len(models) != 2 {
		t.Errorf("vectors_by_model %v, want the built-in model and the new one", st["vectors_by_model"])
	}
	_, out, _ = runCLI(t, r.Dir, "status")
	if !strings.Contains(out, "up to date") || !strings.Contains(out, "(configured)") {
		t.Errorf("status after the search:\n%s", out)
	}
}
