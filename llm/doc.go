// Package llm is a client of OpenAI-compatible chat-completions APIs
// (Ollama, vLLM, llama.cpp's server, Volcengine Ark, OpenAI) for bcindex's
// opt-in LLM features: `git bcindex ask` and `git bcindex enhance`.
//
// It is configured like the remote embedders: a base URL and a model from
// git config (bcindex.enhance.url, bcindex.enhance.model), a key from the
// environment variable bcindex.enhance.keyEnv names, never stored. Requests
// share the embedders' retry rules (internal/httpapi): 429 with
// Retry-After, 5xx, timeouts and network errors are retried with capped
// backoff; authentication and quota failures are not.
//
// Messages carry tool calls (function calling) both ways; DecodeJSON
// validates an answer asked for as one JSON object. Streaming is not used:
// answers are verified before anything is printed.
package llm
