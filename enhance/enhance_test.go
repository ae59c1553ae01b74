package enhance

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/internal/testkit/chattest"
	"github.com/bcindex/bcindex/internal/testkit/gittest"
	"github.com/bcindex/bcindex/llm"
)

// The chat service is chattest's stand-in, speaking the documented
// chat-completions wire format; the "model" below answers every chunk of a
// prompt with a summary naming it, so tests can see what was asked.

// longFunc is a Go function long enough to be split into logic blocks.
func longFunc() string {
	var b strings.Builder
	b.WriteString("func process(items []int) int {\n\ttotal := 0\n")
	for i := range 6 {
		fmt.Fprintf(&b, "\tfor _, it := range items {\n\t\tif it > %d {\n\t\t\ttotal += it * %d\n\t\t\tcontinue\n\t\t}\n\t\ttotal -= %d\n\t}\n", i, i+1, i)
		fmt.Fprintf(&b, "\tif total > %d {\n\t\ttotal /= 2\n\t\ttotal += %d\n\t\ttotal *= 3\n\t}\n", 100*i, i)
	}
	b.WriteString("\treturn total\n}\n")
	return b.String()
}

func fixture(t *testing.T) (*gitindex.Repo, *gittest.Repo) {
	t.Helper()
	r := gittest.New(t)
	src := "package app\n\n// Open opens.\nfunc Open() error { return helper() }\n\nfunc helper() error { return nil }\n\nfunc Close() { Open(); Open(); Open() }\n\n" + longFunc()
	r.Commit("init", map[string]string{"app/app.go": src, "README.md": "# app\n"})
	repo, err := gitindex.OpenRepo(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	return repo, r
}

var idLine = regexp.MustCompile(`### id (\d+): (\S+) (\S*) in`)

// model answers like a well-behaved model and records the names asked.
type model struct {
	mu    sync.Mutex
	asked []string
	say   map[string]string // name → its summary, instead of "Summary of NAME, a KIND."
}

func (m *model) answer(req chattest.Request) chattest.Step {
	user := req.Messages[len(req.Messages)-1].Content
	var chunks []map[string]any
	m.mu.Lock()
	for _, g := range idLine.FindAllStringSubmatch(user, -1) {
		m.asked = append(m.asked, g[3])
		id := 0
		fmt.Sscan(g[1], &id)
		sum := "Summary of " + g[3] + ", a " + g[2] + "."
		if s, ok := m.say[g[3]]; ok {
			sum = s
		}
		chunks = append(chunks, map[string]any{"id": id, "summary": sum,
			"keywords": []string{g[3], "alpha", "beta", "gamma"}, "purpose": "purpose of " + g[3]})
	}
	m.mu.Unlock()
	b, _ := json.Marshal(map[string]any{"chunks": chunks})
	return chattest.Text(string(b))
}

func newClient(t *testing.T, s *chattest.Server) *llm.Client {
	t.Helper()
	c, err := llm.New(llm.Config{URL: s.URL, Model: "scripted"})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// Definitions come first, exported and most used first; the blocks of the
// long function follow with its summary in their prompt; a second run asks
// for nothing.
func TestEnhanceOrderParentsAndOnce(t *testing.T) {
	repo, _ := fixture(t)
	items, err := Collect(context.Background(), repo, []string{"main"}, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	micro := 0
	for _, it := range items {
		if it.Micro {
			micro++
			if it.ParentName != "process" {
				t.Errorf("micro chunk %+v", it)
			}
			continue
		}
		if micro > 0 {
			t.Errorf("definition %s after a block", it.Name)
		}
		names = append(names, it.Name)
	}
	if strings.Join(names, " ") != "Open Close helper process" || micro < 2 {
		t.Fatalf("order %v, %d blocks", names, micro)
	}
	m := &model{}
	s := chattest.NewFunc(t, func(_ int, req chattest.Request) chattest.Step { return m.answer(req) })
	st := Store{IndexDir: repo.IndexDir}
	stats, err := Run(context.Background(), newClient(t, s), st, items, Options{Batch: 3})
	if err != nil {
		t.Fatal(err)
	}
	if stats.Enhanced != len(items) || stats.Skipped != 0 || stats.Macro != 4 || stats.Micro != micro {
		t.Errorf("stats %+v", stats)
	}
	var microPrompt string
	for _, req := range s.Requests() {
		if req.ResponseFormat == nil || req.ResponseFormat.Type != "json_object" {
			t.Errorf("response_format %+v", req.ResponseFormat)
		}
		if u := req.Messages[1].Content; strings.Contains(u, "block inside") {
			microPrompt = u
		}
	}
	if !strings.Contains(microPrompt, "Inside process, which: Summary of process, a function.") {
		t.Errorf("micro prompt lacks the parent's summary:\n%s", microPrompt)
	}
	recs, err := st.Get(context.Background(), "scripted", [][16]byte{items[0].Hash})
	if r := recs[items[0].Hash]; err != nil || !r.Generated || r.Summary.Summary != "Summary of Open, a function." || r.Prompt != PromptVersion {
		t.Errorf("stored %+v, %v", r, err)
	}
	n := len(s.Requests())
	stats, err = Run(context.Background(), newClient(t, s), st, items, Options{})
	if err != nil || stats.Stored != len(items) || stats.ToDo != 0 || len(s.Requests()) != n {
		t.Errorf("second run: %+v, %v, %d requests", stats, err, len(s.Requests())-n)
	}
	// Another model has summarised nothing.
	if done, _ := st.Done(context.Background(), "other-model"); len(done) != 0 {
		t.Errorf("other model: %d", len(done))
	}
}

// A malformed answer is asked again once; what fails twice is skipped and
// counted, and asked again by the next run.
func TestEnhanceMalformed(t *testing.T) {
	repo, _ := fixture(t)
	items, _ := Collect(context.Background(), repo, nil, 1<<20)
	items = items[:4] // the definitions
	m := &model{}
	s := chattest.NewFunc(t, func(n int, req chattest.Request) chattest.Step {
		switch n {
		case 0:
			return chattest.Text(`{"chunks":[{"id":1,"summary":"cut`)
		case 1: // all but id 2, and a summary too short for id 3
			return chattest.Text(`{"chunks":[{"id":1,"summary":"Opens the app for use.","keywords":["a","b","c"],"purpose":"open"},` +
				`{"id":3,"summary":"short","keywords":["a","b","c"],"purpose":"x"},{"id":4,"summary":"Processes items into a total.","keywords":["a","b","c"],"purpose":"sum"},{"id":9,"summary":"no such chunk here"}]}`)
		}
		return m.answer(req)
	})
	st := Store{IndexDir: repo.IndexDir}
	stats, err := Run(context.Background(), newClient(t, s), st, items, Options{Batch: 4})
	if err != nil || stats.Enhanced != 2 || stats.Skipped != 2 || stats.Requests != 2 {
		t.Fatalf("%+v, %v", stats, err)
	}
	stats, err = Run(context.Background(), newClient(t, s), st, items, Options{Batch: 4})
	if err != nil || stats.Stored != 2 || stats.Enhanced != 2 || strings.Join(m.asked, " ") != "Close helper" {
		t.Errorf("rerun: %+v, %v, asked %v", stats, err, m.asked)
	}
}

// Killed after the first batch was stored: the rerun resumes after it and
// no chunk is ever asked for twice.
func TestEnhanceResume(t *testing.T) {
	repo, _ := fixture(t)
	items, _ := Collect(context.Background(), repo, nil, 1<<20)
	m := &model{}
	ctx, cancel := context.WithCancel(context.Background())
	// Ctrl-C while the second batch is in flight: its answer is held back
	// until the cancelled run has returned, so the run can never receive
	// it, however the machine schedules the two sides.
	released := make(chan struct{})
	s := chattest.NewFunc(t, func(n int, req chattest.Request) chattest.Step {
		if n == 1 {
			cancel()
			return func(http.ResponseWriter, chattest.Request) { <-released }
		}
		return m.answer(req)
	})
	st := Store{IndexDir: repo.IndexDir}
	stats, err := Run(ctx, newClient(t, s), st, items, Options{Batch: 2})
	close(released)
	if !errors.Is(err, context.Canceled) || stats.Enhanced != 2 {
		t.Fatalf("%+v, %v", stats, err)
	}
	stats, err = Run(context.Background(), newClient(t, s), st, items, Options{Batch: 2})
	if err != nil || stats.Stored != 2 || stats.Enhanced != len(items)-2 {
		t.Fatalf("resume: %+v, %v", stats, err)
	}
	seen := map[string]int{}
	for _, a := range m.asked {
		seen[a]++
	}
	// The batch cut short was asked for twice; nothing stored was.
	for _, it := range items[:2] {
		if seen[it.Name] != 1 {
			t.Errorf("%s asked %d times", it.Name, seen[it.Name])
		}
	}
}

// Cost control: a dry run sends nothing; --max-chunks and --budget-tokens
// stop early; a second revision holding the same code costs nothing more.
func TestEnhanceBudgetsAndRefs(t *testing.T) {
	repo, r := fixture(t)
	items, _ := Collect(context.Background(), repo, nil, 1<<20)
	m := &model{}
	s := chattest.NewFunc(t, func(_ int, req chattest.Request) chattest.Step { return m.answer(req) })
	st := Store{IndexDir: repo.IndexDir}
	stats, err := Run(context.Background(), newClient(t, s), st, items, Options{DryRun: true})
	if err != nil || stats.ToDo != len(items) || stats.EstTokens < 100 || len(s.Requests()) != 0 {
		t.Fatalf("dry run: %+v, %v", stats, err)
	}
	stats, err = Run(context.Background(), newClient(t, s), st, items, Options{MaxChunks: 3, Batch: 2})
	if err != nil || stats.ToDo != 3 || stats.Enhanced != 3 {
		t.Fatalf("max chunks: %+v, %v", stats, err)
	}
	stats, err = Run(context.Background(), newClient(t, s), st, items, Options{BudgetTokens: 1, Batch: 2})
	if err != nil || !stats.Budget || stats.Requests != 0 {
		t.Fatalf("budget: %+v, %v", stats, err)
	}
	stats, err = Run(context.Background(), newClient(t, s), st, items, Options{})
	if err != nil || stats.Stored != 3 {
		t.Fatal(stats, err)
	}
	// A branch that moves the code to another file and adds one function.
	r.Git("checkout", "-q", "-b", "moved")
	r.Git("mv", "app/app.go", "app/main.go")
	r.Write(map[string]string{"app/extra.go": "package app\n\nfunc Extra() int { return 42 }\n"})
	r.Commit("move", nil)
	items2, err := Collect(context.Background(), repo, []string{"main", "moved"}, 1<<20)
	if err != nil || len(items2) != len(items)+1 {
		t.Fatalf("%d items, %v", len(items2), err)
	}
	m.asked = nil
	stats, err = Run(context.Background(), newClient(t, s), st, items2, Options{})
	if err != nil || stats.Enhanced != 1 || strings.Join(m.asked, " ") != "Extra" {
		t.Errorf("%+v, %v, asked %v", stats, err, m.asked)
	}
}

// A service that answers no request usefully (here: not JSON at all) stops
// the run after a few batches with an error that says why, instead of
// being asked for every chunk and reporting success.
func TestEnhanceAllFailed(t *testing.T) {
	repo, _ := fixture(t)
	items, _ := Collect(context.Background(), repo, nil, 1<<20)
	s := chattest.NewFunc(t, func(int, chattest.Request) chattest.Step {
		return chattest.Raw("<html>502 Bad Gateway</html>")
	})
	stats, err := Run(context.Background(), newClient(t, s), Store{IndexDir: repo.IndexDir}, items, Options{Batch: 1})
	if !errors.Is(err, ErrNoSummaries) || !strings.Contains(err.Error(), "502 Bad Gateway") {
		t.Fatalf("err = %v", err)
	}
	if len(items) <= giveUpAfter || stats.Requests != 2*giveUpAfter || stats.Enhanced != 0 {
		t.Errorf("%d items, stats %+v", len(items), stats)
	}
	// Answers that are JSON but hold no valid summary fail the same way.
	s = chattest.NewFunc(t, func(int, chattest.Request) chattest.Step {
		return chattest.Text(`{"chunks":[{"id":1,"summary":"short"}]}`)
	})
	_, err = Run(context.Background(), newClient(t, s), Store{IndexDir: repo.IndexDir}, items[:1], Options{})
	if !errors.Is(err, ErrNoSummaries) || !strings.Contains(err.Error(), "10 or more characters") {
		t.Errorf("err = %v", err)
	}
}
