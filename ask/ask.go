package ask

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/llm"
	"github.com/bcindex/bcindex/mcp"
)

// Options bound one question.
type Options struct {
	Question  string
	MaxTurns  int // requests to the model; the last one offers no tools; 0: 12
	MaxTokens int // tokens over all requests, as the service counts them; 0: 60000
	// Show receives one line per tool call as it happens; nil: quiet.
	Show io.Writer
}

// Result is the answer and the whole conversation.
type Result struct {
	Question  string        `json:"question"`
	Model     string        `json:"model"`
	Rev       string        `json:"rev"`
	Commit    string        `json:"commit"`
	Answer    string        `json:"answer"` // with failed citations removed
	Citations []Citation    `json:"citations"`
	Dropped   []Citation    `json:"dropped"`
	Turns     int           `json:"turns"`
	Tokens    int           `json:"tokens"`
	ToolCalls int           `json:"tool_calls"`
	Cut       bool          `json:"cut,omitempty"` // the answer stopped at the model's output limit
	Messages  []llm.Message `json:"messages"`      // the transcript, system prompt first
}

// ErrRefused reports that the model declined to answer.
var ErrRefused = errors.New("the model refused")

// ErrBudget reports that the token budget ran out before an answer.
var ErrBudget = errors.New("token budget spent without an answer")

// Asker answers questions about one commit of a repository.
type Asker struct {
	Client *llm.Client
	Repo   *gitindex.Repo
	Server *mcp.Server // the tools, and the path rules citations are read under
	Commit gitindex.Commit
}

const system = `You answer questions about the code of a git repository at commit %s (asked as %q), using the tools to search and read it. Never guess: look at the code first.
When you answer, cite every claim about the code as path:start-end@%.12s (the file's path from the repository root, the first and last line you rely on). Show code only as exact quotes of the cited lines, in backticks or a fenced block right after its citation. Every citation is checked against the repository and removed if the lines do not exist or do not contain the quoted code.`

// Ask runs the conversation: the model calls tools until it answers or the
// budgets run out; the answer's citations are then checked.
func (a *Asker) Ask(ctx context.Context, opts Options) (*Result, error) {
	if strings.TrimSpace(opts.Question) == "" {
		return nil, fmt.Errorf("ask: the question is empty")
	}
	maxTurns, maxTokens := opts.MaxTurns, opts.MaxTokens
	if maxTurns <= 0 {
		maxTurns = 12
	}
	if maxTokens <= 0 {
		maxTokens = 60_000
	}
	commit := a.Commit.Hash.String()
	tb, err := NewToolbox(ctx, a.Server, commit)
	if err != nil {
		return nil, err
	}
	defer tb.Close()
	res := &Result{Question: opts.Question, Model: a.Client.Model(), Rev: a.Commit.Rev, Commit: commit}
	res.Messages = []llm.Message{
		{Role: llm.RoleSystem, Content: fmt.Sprintf(system, commit, a.Commit.Rev, commit)},
		{Role: llm.RoleUser, Content: opts.Question},
	}
	for {
		if res.Tokens >= maxTokens {
			return res, fmt.Errorf("ask: %w after %d turns (%d tokens; raise --max-tokens)", ErrBudget, res.Turns, res.Tokens)
		}
		// The last turn offers no tools, so the model answers with what it
		// has found; so does a turn close to the token budget.
		last := res.Turns+1 >= maxTurns || res.Tokens >= maxTokens*4/5
		var req llm.Request
		if last {
			res.Messages = append(res.Messages, llm.Message{Role: llm.RoleUser,
				Content: "The budget for tool calls is spent: answer now from what you have read, with citations."})
		} else {
			req.Tools, req.ToolChoice = tb.Tools(), "auto"
		}
		req.Messages = res.Messages
		reply, err := a.Client.Chat(ctx, req)
		if err != nil {
			return res, fmt.Errorf("ask: %w", err)
		}
		res.Turns++
		res.Tokens += reply.Usage.TotalTokens
		msg := reply.Message
		msg.Role = llm.RoleAssistant
		for i := range msg.ToolCalls {
			if msg.ToolCalls[i].ID == "" { // some local servers send none; results must name their call
				msg.ToolCalls[i].ID = fmt.Sprintf("call_%d_%d", res.Turns, i)
			}
		}
		res.Messages = append(res.Messages, msg)
		if msg.Refusal != "" || reply.FinishReason == "content_filter" {
			why := msg.Refusal
			if why == "" {
				why = "the service's content filter stopped the answer"
			}
			return res, fmt.Errorf("ask: %w: %s", ErrRefused, why)
		}
		if len(msg.ToolCalls) > 0 && !last {
			if err := a.runCalls(ctx, tb, msg.ToolCalls, res, opts.Show); err != nil {
				return res, err
			}
			continue
		}
		if strings.TrimSpace(msg.Content) == "" {
			return res, fmt.Errorf("ask: the model gave an empty answer after %d turns (finish reason %q)", res.Turns, reply.FinishReason)
		}
		res.Cut = reply.FinishReason == "length"
		a.verify(msg.Content, res)
		return res, nil
	}
}

// runCalls runs the tool calls of one turn and appends their results.
func (a *Asker) runCalls(ctx context.Context, tb *Toolbox, calls []llm.ToolCall, res *Result, show io.Writer) error {
	for _, call := range calls {
		if show != nil {
			fmt.Fprintf(show, "→ %s %s\n", call.Function.Name, clip(strings.TrimSpace(call.Function.Arguments), 160))
		}
		text, isErr, err := tb.Call(ctx, call.Function)
		if err != nil {
			return fmt.Errorf("ask: tool %s: %w", call.Function.Name, err)
		}
		if show != nil && isErr {
			fmt.Fprintf(show, "  %s\n", clip(firstLine(text), 160))
		}
		res.ToolCalls++
		res.Messages = append(res.Messages, llm.Message{Role: llm.RoleTool, ToolCallID: call.ID, Name: call.Function.Name, Content: text})
	}
	return nil
}

// verify checks every citation of answer: those that fail are cut from the
// text and listed in res.Dropped, those that pass are written in full.
func (a *Asker) verify(answer string, res *Result) {
	v := verifier{repo: a.Repo, srv: a.Server, commit: res.Commit}
	var b strings.Builder
	prev := 0
	seen := map[string]bool{}
	for _, f := range findCitations(answer) {
		c := f.c
		v.check(&c)
		b.WriteString(answer[prev:f.start])
		prev = f.end
		if c.Dropped != "" {
			b.WriteString("[citation removed]")
			res.Dropped = append(res.Dropped, c)
			continue
		}
		b.WriteString(c.String())
		if !seen[c.String()] {
			seen[c.String()] = true
			res.Citations = append(res.Citations, c)
		}
	}
	b.WriteString(answer[prev:])
	res.Answer = b.String()
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

// Print writes the checked answer, the citations that passed, and a note
// for each that did not.
func (r *Result) Print(w io.Writer) {
	fmt.Fprintln(w, strings.TrimSpace(r.Answer))
	if len(r.Citations) > 0 {
		fmt.Fprintln(w, "\nCitations:")
		for _, c := range r.Citations {
			fmt.Fprintf(w, "  %s\n", c)
		}
	}
	for _, c := range r.Dropped {
		fmt.Fprintf(w, "\nnote: citation %s removed: %s", c.Text, c.Dropped)
	}
	if r.Cut {
		fmt.Fprint(w, "\nnote: the answer stopped at the model's output limit")
	}
	if len(r.Dropped) > 0 || r.Cut {
		fmt.Fprintln(w)
	}
}
