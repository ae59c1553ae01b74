package enhance

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/llm"
)

// Options bound one run.
type Options struct {
	Batch        int  // chunks per request; 0: 8
	MaxChunks    int  // chunks to request summaries of in this run; 0: all
	BudgetTokens int  // tokens to spend, as the service counts them; 0: no limit
	DryRun       bool // count and estimate, send nothing
	// Model names the model whose stored summaries count as done when
	// there is no client (a dry run with no chat service configured).
	Model string
	// Progress is called after each batch with the chunks handled so far
	// and the number this run will handle.
	Progress func(done, total int)
	// Embedder embeds the summaries for the vector search (nil: only
	// their words are searched). See Reindex.
	Embedder embed.Embedder
}

// Stats report a run.
type Stats struct {
	Chunks    int  `json:"chunks"`     // distinct chunk texts found: macro + micro
	Macro     int  `json:"macro"`      // definitions
	Micro     int  `json:"micro"`      // blocks inside definitions
	Stored    int  `json:"stored"`     // already summarised by this model and prompt, not requested
	ToDo      int  `json:"to_do"`      // to request in this run, after --max-chunks
	EstTokens int  `json:"est_tokens"` // about how many tokens ToDo costs
	Enhanced  int  `json:"enhanced"`   // summarised and stored in this run
	Skipped   int  `json:"skipped"`    // malformed twice: not stored, asked again next run
	Requests  int  `json:"requests"`   // HTTP requests sent, retries included
	Tokens    int  `json:"tokens"`     // tokens spent, as the service counted them
	Budget    bool `json:"budget_hit"` // the token budget stopped the run
	Searched  int  `json:"searched"`   // summaries search ranks with (Reindex) after the run
}

// ErrNoSummaries reports a run in which no request brought back a usable
// summary: the model or the service is not answering as asked.
var ErrNoSummaries = errors.New("no request brought back a usable summary")

// giveUpAfter is how many batches in a row may fail, before any has
// succeeded, until the run stops: a service that answers nonsense once
// per batch would otherwise be asked for every chunk.
const giveUpAfter = 3

// answerTokens estimates the answer to one chunk.
const answerTokens = 90

// Run summarises the items the store lacks, in order, batch by batch,
// storing the answers every few seconds and when interrupted: a run
// stopped at any point keeps what was stored, and the next run resumes
// after it.
func Run(ctx context.Context, client *llm.Client, st Store, items []Item, opts Options) (Stats, error) {
	var s Stats
	batch := opts.Batch
	if batch <= 0 {
		batch = 8
	}
	model := opts.Model
	if client != nil {
		model = client.Model()
	} else if !opts.DryRun {
		return s, fmt.Errorf("enhance: no chat service: %w", llm.ErrNotConfigured)
	}
	done := map[[16]byte]bool{}
	if model != "" {
		var err error
		if done, err = st.Done(ctx, model); err != nil {
			return s, err
		}
	}
	var todo []Item
	for _, it := range items {
		s.Chunks++
		if it.Micro {
			s.Micro++
		} else {
			s.Macro++
		}
		if done[it.Hash] {
			s.Stored++
		} else if opts.MaxChunks <= 0 || len(todo) < opts.MaxChunks {
			todo = append(todo, it)
		}
	}
	s.ToDo = len(todo)
	batches := cut(todo, batch)
	for _, b := range batches {
		s.EstTokens += estimate(b)
	}
	if opts.DryRun {
		return s, nil
	}
	if len(todo) == 0 {
		return s, s.reindex(ctx, st, client.Model(), opts.Embedder)
	}
	parents := map[[16]byte]Summary{}
	w := &writer{st: st, model: client.Model(), pending: map[[16]byte]Summary{}, last: time.Now()}
	handled, failed := 0, 0
	var why error // the last reason a batch brought nothing
	for _, b := range batches {
		if opts.BudgetTokens > 0 && s.Tokens+estimate(b) > opts.BudgetTokens {
			s.Budget = true
			break
		}
		if b[0].Micro {
			if err := w.flush(ctx); err != nil { // parents from this run, then the store
				return s, err
			}
			if err := loadParents(ctx, st, client.Model(), b, parents); err != nil {
				return s, err
			}
		}
		sums, bad, err := summarise(ctx, client, b, parents, &s)
		for h, sum := range sums {
			parents[h] = sum
			w.pending[h] = sum
		}
		s.Enhanced += len(sums)
		if err != nil {
			// Interrupted or failed: keep what was answered before returning.
			if ferr := w.flush(context.WithoutCancel(ctx)); ferr != nil {
				return s, errors.Join(err, ferr)
			}
			return s, err
		}
		s.Skipped += len(b) - len(sums)
		if len(sums) == 0 {
			failed, why = failed+1, bad
		} else {
			failed = 0
		}
		if s.Enhanced == 0 && failed >= giveUpAfter {
			return s, noSummaries(s, why)
		}
		if time.Since(w.last) >= flushEvery {
			if err := w.flush(ctx); err != nil {
				return s, err
			}
		}
		handled += len(b)
		if opts.Progress != nil {
			opts.Progress(handled, len(todo))
		}
	}
	if err := w.flush(ctx); err != nil {
		return s, err
	}
	if s.Enhanced == 0 && s.Requests > 0 {
		return s, noSummaries(s, why)
	}
	return s, s.reindex(ctx, st, client.Model(), opts.Embedder)
}

func noSummaries(s Stats, why error) error {
	if why == nil {
		why = errors.New("the answers held no valid summary (each needs a summary of 10 or more characters; definitions a purpose and three keywords)")
	}
	return fmt.Errorf("enhance: %w in %d requests; stopped: %v", ErrNoSummaries, s.Requests, why)
}

// reindex brings the summary index search reads up to date with the
// store. An interrupted run leaves it to the next: the summaries it wrote
// are stored either way.
func (s *Stats) reindex(ctx context.Context, st Store, model string, emb embed.Embedder) (err error) {
	s.Searched, err = Reindex(ctx, st, model, emb)
	return err
}

// flushEvery is how long answers wait in memory before they are written.
// Each write opens the database under the index lock (0.1–0.2 s on a
// shared machine): with a fast model, writing every batch would cost more
// than the model; a kill loses at most this much work.
const flushEvery = 3 * time.Second

// writer buffers summaries between writes.
type writer struct {
	st      Store
	model   string
	pending map[[16]byte]Summary
	last    time.Time
}

func (w *writer) flush(ctx context.Context) error {
	if len(w.pending) == 0 {
		return nil
	}
	if err := w.st.Put(ctx, w.model, w.pending); err != nil {
		return err
	}
	w.pending, w.last = map[[16]byte]Summary{}, time.Now()
	return nil
}

// summarise asks for a batch; the chunks a malformed answer leaves out are
// asked for once more. bad is why the last answer was unusable, if it was.
func summarise(ctx context.Context, client *llm.Client, b []Item, parents map[[16]byte]Summary, s *Stats) (out map[[16]byte]Summary, bad, err error) {
	out = map[[16]byte]Summary{}
	pending := b
	for try := 0; try < 2 && len(pending) > 0; try++ {
		// The output cap is a guard against a model that never stops, with
		// room for models that write more than the estimate allows.
		sent := client.Sent()
		reply, err := client.Chat(ctx, llm.Request{Messages: prompt(pending, parents),
			ResponseFormat: &llm.ResponseFormat{Type: "json_object"}, MaxTokens: answerTokens*len(pending)*3 + 400})
		s.Requests += client.Sent() - sent // the retries too
		if err != nil && !errors.Is(err, llm.ErrMalformed) {
			return out, nil, fmt.Errorf("enhance: %w", err)
		}
		s.Tokens += reply.Usage.TotalTokens
		var got map[int]Summary
		bad = err
		if err == nil {
			got, bad = parse(reply, pending)
		}
		var again []Item
		for i, it := range pending {
			if sum, ok := got[i]; ok {
				out[it.Hash] = sum
			} else {
				again = append(again, it)
			}
		}
		pending = again
	}
	return out, bad, nil
}

// loadParents reads the stored summaries of the micro chunks' parents that
// this run has not written itself.
func loadParents(ctx context.Context, st Store, model string, b []Item, parents map[[16]byte]Summary) error {
	var need [][16]byte
	for _, it := range b {
		if _, ok := parents[it.Parent]; !ok {
			need = append(need, it.Parent)
		}
	}
	if len(need) == 0 {
		return nil
	}
	recs, err := st.Get(ctx, model, need)
	if err != nil {
		return err
	}
	for h, r := range recs {
		parents[h] = r.Summary
	}
	return nil
}

// cut splits items into batches of at most n, never mixing macro and
// micro chunks (they take different prompts).
func cut(items []Item, n int) [][]Item {
	var out [][]Item
	for len(items) > 0 {
		k := 1
		for k < len(items) && k < n && items[k].Micro == items[0].Micro {
			k++
		}
		out = append(out, items[:k])
		items = items[k:]
	}
	return out
}

// estimate is about the tokens a batch costs: its prompt and answers.
func estimate(b []Item) int {
	n := len(systemPrompt) + len(macroAsk)
	for _, it := range b {
		n += min(len(it.Text), maxChunkText) + len(it.Path) + len(it.Name) + 80
	}
	return llm.Tokens(n) + answerTokens*len(b)
}
