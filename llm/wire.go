package llm

import (
	"bytes"
	"encoding/json"
)

// The chat-completions wire format (POST {url}/chat/completions), as
// OpenAI documents it and Ollama, vLLM, llama.cpp's server and Volcengine
// Ark serve it. Only the fields bcindex uses are declared.

// Roles of a message.
const (
	RoleSystem    = "system"
	RoleUser      = "user"
	RoleAssistant = "assistant"
	RoleTool      = "tool"
)

// Message is one turn of a conversation.
type Message struct {
	Role string `json:"role"`
	// Content is the text; an assistant message that only calls tools
	// may carry none (null on the wire reads as "").
	Content string `json:"content"`
	// Refusal is set by services that report a refusal apart from the text.
	Refusal    string     `json:"refusal,omitempty"`
	ToolCalls  []ToolCall `json:"tool_calls,omitempty"`
	ToolCallID string     `json:"tool_call_id,omitempty"` // a tool result answers this call
	Name       string     `json:"name,omitempty"`         // the tool's name, on a tool result
}

// ToolCall is the model asking for a function to be run.
type ToolCall struct {
	ID       string       `json:"id"`
	Type     string       `json:"type"` // "function"
	Function FunctionCall `json:"function"`
}

// FunctionCall names the function; Arguments is JSON text the model wrote,
// which may be malformed.
type FunctionCall struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// UnmarshalJSON reads arguments sent as a JSON string, as the format
// documents, or as an object, as some local servers send them.
func (f *FunctionCall) UnmarshalJSON(b []byte) error {
	var raw struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	f.Name, f.Arguments = raw.Name, ""
	args := bytes.TrimSpace(raw.Arguments)
	switch {
	case len(args) == 0 || bytes.Equal(args, []byte("null")):
	case args[0] == '"':
		return json.Unmarshal(args, &f.Arguments)
	default:
		f.Arguments = string(args)
	}
	return nil
}

// Tool declares a function the model may call.
type Tool struct {
	Type     string   `json:"type"` // "function"
	Function Function `json:"function"`
}

// Function is a tool's name, description and JSON Schema of its arguments.
type Function struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters,omitempty"`
}

// Request is the body of POST /chat/completions.
type Request struct {
	Model          string          `json:"model"`
	Messages       []Message       `json:"messages"`
	Tools          []Tool          `json:"tools,omitempty"`
	ToolChoice     string          `json:"tool_choice,omitempty"` // "auto", "none"
	MaxTokens      int             `json:"max_tokens,omitempty"`
	Temperature    *float64        `json:"temperature,omitempty"`
	ResponseFormat *ResponseFormat `json:"response_format,omitempty"`
}

// ResponseFormat asks for a JSON object answer ({"type":"json_object"}).
type ResponseFormat struct {
	Type string `json:"type"`
}

// Usage counts the tokens of one request, as the service reports them.
type Usage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
}

// response is the answer of POST /chat/completions.
type response struct {
	Choices []struct {
		Index        int     `json:"index"`
		Message      Message `json:"message"`
		FinishReason string  `json:"finish_reason"`
	} `json:"choices"`
	Usage *Usage `json:"usage"`
}

// Reply is the first choice of an answer.
type Reply struct {
	Message Message
	// FinishReason is "stop", "tool_calls", "length" (cut at max_tokens),
	// "content_filter", or whatever the service says.
	FinishReason string
	// Usage is the service's count, or an estimate (about four bytes a
	// token) when it sends none; Estimated says which.
	Usage     Usage
	Estimated bool
}
