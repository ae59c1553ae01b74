package ask

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/bcindex/bcindex/llm"
	"github.com/bcindex/bcindex/mcp"
)

// toolNames are the MCP server's tools the model may call, by name. A tool
// registered on the MCP server is offered to the model by adding its name
// here; its description, JSON Schema, path rules and output caps come with
// it.
var toolNames = []string{
	"search",
	"get_chunk",
	"file_chunks",
	"read_file",
	"list_directory",
}

// maxToolText caps what one tool call puts into the conversation, on top of
// each tool's own budget, so that a few calls cannot fill a small model's
// context.
const maxToolText = 24_000

// Toolbox runs tool calls through the MCP server over an in-process
// connection: the model gets exactly what an agent connected to `git
// bcindex mcp` gets, under the same rules.
type Toolbox struct {
	cs     *sdk.ClientSession
	ss     *sdk.ServerSession
	tools  []llm.Tool
	hasRev map[string]bool // tools taking a rev argument
	commit string          // default revision: the commit asked about
}

// NewToolbox connects to srv and lists the tools offered to the model;
// calls without a rev argument read commit.
func NewToolbox(ctx context.Context, srv *mcp.Server, commit string) (*Toolbox, error) {
	st, ct := sdk.NewInMemoryTransports()
	ss, err := srv.SDK().Connect(ctx, st, nil)
	if err != nil {
		return nil, fmt.Errorf("connect to the tools: %w", err)
	}
	cl := sdk.NewClient(&sdk.Implementation{Name: "bcindex-ask", Version: "1"}, nil)
	cs, err := cl.Connect(ctx, ct, nil)
	if err != nil {
		ss.Close()
		return nil, fmt.Errorf("connect to the tools: %w", err)
	}
	tb := &Toolbox{cs: cs, ss: ss, hasRev: map[string]bool{}, commit: commit}
	res, err := cs.ListTools(ctx, nil)
	if err != nil {
		tb.Close()
		return nil, fmt.Errorf("list tools: %w", err)
	}
	for _, t := range res.Tools {
		if !slices.Contains(toolNames, t.Name) {
			continue
		}
		schema, err := json.Marshal(t.InputSchema)
		if err != nil {
			tb.Close()
			return nil, fmt.Errorf("tool %s: schema: %w", t.Name, err)
		}
		tb.hasRev[t.Name] = strings.Contains(string(schema), `"rev"`)
		tb.tools = append(tb.tools, llm.Tool{Type: "function", Function: llm.Function{Name: t.Name, Description: t.Description, Parameters: schema}})
	}
	return tb, nil
}

// Tools returns the tools as the chat API declares them.
func (tb *Toolbox) Tools() []llm.Tool { return tb.tools }

// Close ends the in-process connection.
func (tb *Toolbox) Close() {
	tb.cs.Close()
	tb.ss.Wait()
}

// Call runs one tool call and returns the text for the model. Mistakes —
// an unknown tool, arguments that are not a JSON object, arguments the
// tool refuses — come back as text the model can act on (isErr), never as
// a failure of the conversation; err is only a broken connection or ctx.
func (tb *Toolbox) Call(ctx context.Context, call llm.FunctionCall) (text string, isErr bool, err error) {
	if !tb.offered(call.Name) {
		var names []string
		for _, t := range tb.tools {
			names = append(names, t.Function.Name)
		}
		return fmt.Sprintf("error: there is no tool %q; the tools are %s", call.Name, strings.Join(names, ", ")), true, nil
	}
	args := map[string]any{}
	if raw := strings.TrimSpace(call.Arguments); raw != "" {
		if err := json.Unmarshal([]byte(raw), &args); err != nil {
			return fmt.Sprintf("error: the arguments of %s are not a JSON object (%v); call it again with arguments such as {\"path\": \"main.go\"}", call.Name, err), true, nil
		}
	}
	if rev, _ := args["rev"].(string); tb.hasRev[call.Name] && strings.TrimSpace(rev) == "" {
		args["rev"] = tb.commit
	}
	res, err := tb.cs.CallTool(ctx, &sdk.CallToolParams{Name: call.Name, Arguments: args})
	if err != nil {
		if ctx.Err() != nil {
			return "", false, ctx.Err()
		}
		// The SDK reports arguments failing the schema as a protocol error.
		return "error: " + err.Error(), true, nil
	}
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	text = b.String()
	if len(text) > maxToolText {
		text = clip(text, maxToolText) + fmt.Sprintf("\n[answer cut at %d bytes: ask for less, e.g. a narrower line range]", maxToolText)
	}
	if res.IsError {
		return "error: " + text, true, nil
	}
	return text, false, nil
}

func (tb *Toolbox) offered(name string) bool {
	for _, t := range tb.tools {
		if t.Function.Name == name {
			return true
		}
	}
	return false
}
