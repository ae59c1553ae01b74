package llm

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"time"

	"github.com/bcindex/bcindex/internal/httpapi"
)

// Config selects the chat service and model. The CLI fills it from git
// config: bcindex.enhance.url, bcindex.enhance.model and
// bcindex.enhance.keyEnv, the name of the environment variable holding the
// key. The key itself is never read from git config nor stored.
type Config struct {
	URL    string // base URL, e.g. http://127.0.0.1:11434/v1
	Model  string
	KeyEnv string // environment variable holding the key; "": no key (a local server)

	// APIKey overrides the environment; leave it empty outside tests.
	APIKey string
	// Timeout bounds one request; 0: five minutes.
	Timeout time.Duration
	// Retry replaces the default retry policy; nil: six tries.
	Retry *httpapi.Policy
}

// ConfigError is a configuration mistake; Key names the git config key.
type ConfigError struct {
	Key string
	Msg string
}

func (e *ConfigError) Error() string { return fmt.Sprintf("git config %s: %s", e.Key, e.Msg) }

// ErrNotConfigured reports that no chat service is configured: the LLM
// features are opt-in.
var ErrNotConfigured = &ConfigError{Key: "bcindex.enhance.url", Msg: "is not set: the LLM features are off until a chat-completions API is configured (see doc/llm.md), e.g. `git config bcindex.enhance.url http://127.0.0.1:11434/v1` and `git config bcindex.enhance.model qwen2.5-coder:7b`"}

var envName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// ReadConfig reads the bcindex.enhance.* keys through get ("url", "model",
// "keyEnv"); a key pasted into git config is refused.
func ReadConfig(get func(key string) string) (Config, error) {
	cfg := Config{URL: strings.TrimSpace(get("url")), Model: strings.TrimSpace(get("model")), KeyEnv: strings.TrimSpace(get("keyEnv"))}
	for _, k := range []string{"key", "apiKey", "token"} {
		if get(k) != "" {
			return cfg, &ConfigError{Key: "bcindex.enhance." + k, Msg: "keys are not read from git config: unset it, export the key, and name the variable with bcindex.enhance.keyEnv"}
		}
	}
	if cfg.URL == "" {
		return cfg, ErrNotConfigured
	}
	return cfg, cfg.check()
}

func (c *Config) check() error {
	if c.URL == "" {
		return ErrNotConfigured
	}
	u, err := cleanURL(c.URL)
	if err != nil {
		return err
	}
	c.URL = u
	if c.Model == "" || strings.ContainsFunc(c.Model, func(r rune) bool { return r <= ' ' }) {
		return &ConfigError{Key: "bcindex.enhance.model", Msg: fmt.Sprintf("%q: name the chat model, e.g. qwen2.5-coder:7b (Ollama) or gpt-4o-mini", c.Model)}
	}
	if c.KeyEnv != "" && !envName.MatchString(c.KeyEnv) {
		return &ConfigError{Key: "bcindex.enhance.keyEnv", Msg: fmt.Sprintf("%q: want the name of an environment variable (such as OPENAI_API_KEY), not the key itself", c.KeyEnv)}
	}
	return nil
}

// key returns the API key from the override or the named variable.
func (c Config) key() string {
	if c.APIKey != "" {
		return c.APIKey
	}
	if c.KeyEnv != "" {
		return os.Getenv(c.KeyEnv)
	}
	return ""
}
