package main

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/internal/testkit/gittest"
	"github.com/bcindex/bcindex/train"
)

// documentedRepo commits n documented Go functions, each with its own
// words, spread over a few files.
func documentedRepo(t *testing.T, n int) *gittest.Repo {
	t.Helper()
	nouns := []string{"invoice", "ledger", "shipment", "parcel", "voucher", "tariff", "pallet", "manifest", "customs", "warehouse"}
	verbs := []string{"reconcile", "archive", "validate", "split", "merge", "price", "route", "audit"}
	files := map[string]string{}
	for i := 0; i < n; i++ {
		noun, verb := nouns[i%len(nouns)], verbs[(i/len(nouns))%len(verbs)]
		name := fmt.Sprintf("%s%s%d", strings.ToUpper(verb[:1])+verb[1:], strings.ToUpper(noun[:1])+noun[1:], i)
		f := fmt.Sprintf("logistics/%s.go", noun)
		if files[f] == "" {
			files[f] = "package logistics\n"
		}
		files[f] += fmt.Sprintf("\n// %s will %s the %s with the given id.\nfunc %s(%sID int) error {\n\tif %sID < 0 {\n\t\treturn errBad%s\n\t}\n\treturn store.%s(%sID)\n}\n",
			name, verb, noun, name, noun, noun, noun, verb, noun)
	}
	r := gittest.New(t)
	r.Commit("logistics", files)
	return r
}

func embedderOf(t *testing.T, dir string) embed.Embedder {
	t.Helper()
	repo, err := gitindex.OpenRepo(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer repo.Close()
	s, err := readSettings(repo)
	if err != nil {
		t.Fatal(err)
	}
	return s.emb
}

func TestAdaptCommand(t *testing.T) {
	r := documentedRepo(t, 60)
	tree := strings.TrimSpace(r.Git("rev-parse", "HEAD^{tree}"))
	want := train.AdaptedID(embed.BuiltinID, tree)
	repo, err := gitindex.OpenRepo(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	modelPath := train.AdaptedPath(repo.IndexDir)
	repo.Close()

	// Measuring reports both models on the held-out half and keeps nothing.
	code, out, errOut := runCLI(t, r.Dir, "adapt", "--measure")
	if code != 0 || strings.Count(out, "macro average") != 2 || !strings.Contains(out, "held-out half") {
		t.Fatalf("adapt --measure: exit %d\n%s\n%s", code, out, errOut)
	}
	if _, err := os.Stat(modelPath); !os.IsNotExist(err) {
		t.Fatalf("adapt --measure left a model: %v", err)
	}

	code, out, errOut = runCLI(t, r.Dir, "adapt")
	if code != 0 || !strings.Contains(out, want) {
		t.Fatalf("adapt: exit %d, want ID %s\n%s\n%s", code, want, out, errOut)
	}
	if id := embedderOf(t, r.Dir).ID(); id != want {
		t.Fatalf("embedder after adapt = %s, want %s", id, want)
	}
	// Index and search run on the adapted model's vectors.
	code, out, errOut = runCLI(t, r.Dir, "search", "--json", "--mode", "vector", "audit the customs")
	if code != 0 || !strings.Contains(out, "customs") {
		t.Fatalf("search with the adapted model: exit %d\n%s\n%s", code, out, errOut)
	}

	// bcindex.adapt false goes back to the built-in model and refuses to adapt.
	r.Git("config", "bcindex.adapt", "false")
	if id := embedderOf(t, r.Dir).ID(); id != embed.BuiltinID {
		t.Fatalf("embedder with bcindex.adapt false = %s", id)
	}
	if code, _, errOut = runCLI(t, r.Dir, "adapt"); code == 0 || !strings.Contains(errOut, "bcindex.adapt") {
		t.Fatalf("adapt with bcindex.adapt false: exit %d: %s", code, errOut)
	}
	r.Git("config", "bcindex.adapt", "maybe")
	if code, _, errOut = runCLI(t, r.Dir, "search", "customs"); code == 0 || !strings.Contains(errOut, "bcindex.adapt") {
		t.Fatalf("bad bcindex.adapt: exit %d: %s", code, errOut)
	}
	r.Git("config", "--unset", "bcindex.adapt")

	// A damaged model is never served: the error says how to recover.
	if err := os.WriteFile(modelPath, []byte("not a model"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut = runCLI(t, r.Dir, "search", "customs"); code == 0 || !strings.Contains(errOut, "git bcindex adapt") {
		t.Fatalf("damaged adapted model: exit %d: %s", code, errOut)
	}
	if code, out, errOut = runCLI(t, r.Dir, "adapt"); code != 0 || !strings.Contains(out, want) {
		t.Fatalf("adapt over a damaged model: exit %d\n%s\n%s", code, out, errOut)
	}
	if code, _, errOut = runCLI(t, r.Dir, "search", "customs"); code != 0 {
		t.Fatalf("search after adapting again: exit %d: %s", code, errOut)
	}
}

func TestAdaptTooFewFunctions(t *testing.T) {
	r := documentedRepo(t, 5)
	code, _, errOut := runCLI(t, r.Dir, "adapt")
	if code == 0 || !strings.Contains(errOut, "documented functions") {
		t.Fatalf("adapt on 5 functions: exit %d: %s", code, errOut)
	}
}
