package embed

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"time"
	"unicode"
)

// Provider names, as set with `git config bcindex.embedder`.
const (
	ProviderBuiltin   = "builtin"
	ProviderOpenAI    = "openai"
	ProviderOllama    = "ollama"
	ProviderModel2Vec = "model2vec"
)

// Default endpoints of the remote providers.
const (
	DefaultOpenAIEndpoint = "https://api.openai.com/v1"
	DefaultOllamaEndpoint = "http://127.0.0.1:11434"
)

// Environment variables holding API keys. Keys are read from the
// environment only, never from git config, and never logged, stored in the
// index, shown in an ID or put in an error message.
const (
	EnvAPIKey       = "BCINDEX_API_KEY"
	EnvOpenAIAPIKey = "OPENAI_API_KEY"
)

// Config selects and configures an embedder. The CLI fills it from git
// config (bcindex.embedder, bcindex.endpoint, bcindex.model,
// bcindex.dimensions, bcindex.concurrency) and New builds the embedder.
type Config struct {
	Provider    string // "", "builtin", "openai", "ollama" or "model2vec"
	Endpoint    string // base URL of a remote provider; "" for its default
	Model       string // model name (openai, ollama) or model directory (model2vec)
	Dimensions  int    // vector length; 0: the model's own (known or from the weights)
	Concurrency int    // requests in flight for a remote provider; 0: 4

	// APIKey overrides the environment; leave it empty outside tests.
	APIKey string
	// Timeout bounds one HTTP request; 0: 2 minutes.
	Timeout time.Duration
	// Dims, when set, lets New learn the vector length of a remote model
	// that Dimensions and the well-known table leave open, by one tiny
	// embedding request whose answer it keeps there. Nil: such a model is
	// a ConfigError asking for bcindex.dimensions.
	Dims DimCache
}

// ConfigError is a configuration mistake. Key names the git config key to
// fix, e.g. "bcindex.model".
type ConfigError struct {
	Key string
	Msg string
}

func (e *ConfigError) Error() string {
	return fmt.Sprintf("git config %s: %s", e.Key, e.Msg)
}

// ErrQuota reports that a provider refused a request because the account
// has no quota left (OpenAI's "insufficient_quota"). It is never retried.
var ErrQuota = errors.New("embedding provider quota exhausted")

// ErrAuth reports that a provider rejected the API key (HTTP 401 or 403),
// or that none was set where one is required.
var ErrAuth = errors.New("embedding provider rejected the credentials")

// New returns the embedder cfg describes. Remote embedders take their
// dimension from the configuration, a table of well-known models, or else
// (with cfg.Dims) from cfg.Dims or one probing request; only that last case
// contacts the service.
func New(cfg Config) (Embedder, error) {
	p := strings.ToLower(strings.TrimSpace(cfg.Provider))
	if cfg.Dimensions < 0 {
		return nil, &ConfigError{Key: "bcindex.dimensions", Msg: fmt.Sprintf("%d: want a positive vector length", cfg.Dimensions)}
	}
	if cfg.Concurrency < 0 {
		return nil, &ConfigError{Key: "bcindex.concurrency", Msg: fmt.Sprintf("%d: want a positive number of requests", cfg.Concurrency)}
	}
	switch p {
	case "", ProviderBuiltin:
		if cfg.Endpoint != "" {
			return nil, &ConfigError{Key: "bcindex.endpoint", Msg: fmt.Sprintf("is set, but bcindex.embedder is %q (the default); set bcindex.embedder to openai or ollama, or unset bcindex.endpoint", ProviderBuiltin)}
		}
		if cfg.Dimensions != 0 {
			return nil, &ConfigError{Key: "bcindex.dimensions", Msg: "applies to the openai and ollama embedders only; unset it for the built-in model"}
		}
		if cfg.Model != "" {
			// A built-in model adapted to one repository by
			// `bcindex-train adapt` (same format, its own ID).
			data, err := os.ReadFile(cfg.Model)
			if err != nil {
				return nil, &ConfigError{Key: "bcindex.model", Msg: fmt.Sprintf("is set, but bcindex.embedder is %q (the default), for which it names a model file written by `bcindex-train adapt` (%v); to use a provider's model set bcindex.embedder to openai, ollama or model2vec", ProviderBuiltin, err)}
			}
			m, err := LoadStatic(data)
			if err != nil {
				return nil, &ConfigError{Key: "bcindex.model", Msg: fmt.Sprintf("%s: %v", cfg.Model, err)}
			}
			return m, nil
		}
		return Default(), nil
	case ProviderOpenAI, ProviderOllama:
		return newRemote(p, cfg)
	case ProviderModel2Vec:
		if cfg.Model == "" {
			return nil, &ConfigError{Key: "bcindex.model", Msg: "is not set: point it at a model2vec directory (model.safetensors, tokenizer.json, config.json)"}
		}
		if cfg.Endpoint != "" {
			return nil, &ConfigError{Key: "bcindex.endpoint", Msg: "is set, but the model2vec embedder runs locally; unset it"}
		}
		m, err := LoadModel2Vec(cfg.Model)
		if err != nil {
			return nil, &ConfigError{Key: "bcindex.model", Msg: err.Error()}
		}
		if cfg.Dimensions != 0 && cfg.Dimensions != m.Dim() {
			return nil, &ConfigError{Key: "bcindex.dimensions", Msg: fmt.Sprintf("is %d but the model2vec model in %s has %d dimensions; unset it", cfg.Dimensions, cfg.Model, m.Dim())}
		}
		return m, nil
	}
	return nil, &ConfigError{Key: "bcindex.embedder", Msg: fmt.Sprintf("%q: want builtin, openai, ollama or model2vec", cfg.Provider)}
}

// knownDims are the native vector lengths of common embedding models, so a
// remote embedder's ID (which includes its dimension) is known without a
// request. Other models need bcindex.dimensions.
var knownDims = map[string]int{
	// OpenAI.
	"text-embedding-3-small": 1536,
	"text-embedding-3-large": 3072,
	"text-embedding-ada-002": 1536,
	// Ollama library (tags such as ":latest" or ":v1.5" are ignored).
	"nomic-embed-text":       768,
	"mxbai-embed-large":      1024,
	"all-minilm":             384,
	"snowflake-arctic-embed": 1024,
	"bge-m3":                 1024,
	"bge-large":              1024,
	"granite-embedding":      384,
	"embeddinggemma":         768,
	"qwen3-embedding":        4096,
}

// modelDim returns the configured or well-known dimension of a remote model.
func modelDim(provider, model string, configured int) (int, error) {
	if configured > 0 {
		return configured, nil
	}
	name := model
	if provider == ProviderOllama {
		if i := strings.LastIndexByte(name, ':'); i >= 0 {
			name = name[:i]
		}
	}
	if d, ok := knownDims[name]; ok {
		return d, nil
	}
	return 0, &ConfigError{Key: "bcindex.dimensions", Msg: fmt.Sprintf("is not set and the vector length of model %q is not known: set it to the model's output dimension, e.g. `git config bcindex.dimensions 1024`", model)}
}

// checkModelName rejects names that would make confusing IDs.
func checkModelName(model string) error {
	if model == "" {
		return &ConfigError{Key: "bcindex.model", Msg: "is not set: name the embedding model, e.g. `git config bcindex.model text-embedding-3-small` (openai) or `nomic-embed-text` (ollama)"}
	}
	for _, r := range model {
		if unicode.IsSpace(r) || unicode.IsControl(r) {
			return &ConfigError{Key: "bcindex.model", Msg: fmt.Sprintf("%q contains white space", model)}
		}
	}
	return nil
}

// apiKey returns the key for provider from cfg or the environment.
func apiKey(provider string, cfg Config) string {
	if cfg.APIKey != "" {
		return cfg.APIKey
	}
	if k := os.Getenv(EnvAPIKey); k != "" {
		return k
	}
	if provider == ProviderOpenAI {
		return os.Getenv(EnvOpenAIAPIKey)
	}
	return ""
}
