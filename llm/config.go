package llm

import (
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/bcindex/bcindex/internal/httpapi"
	"github.com/bcindex/bcindex/internal/lazyre"
)

// Config selects the chat service and model. The CLI fills it from git
// config: bcindex.enhance.url, bcindex.enhance.model,
// bcindex.enhance.keyEnv, the name of the environment variable holding the
// key, and bcindex.enhance.timeout. The key itself is never read from git
// config nor stored.
type Config struct {
	URL    string // base URL, e.g. http://127.0.0.1:11434/v1
	Model  string
	KeyEnv string // environment variable holding the key; "": no key (a local server)

	// APIKey overrides the environment; leave it empty outside tests.
	APIKey string
	// Timeout bounds one request, answer included; 0: DefaultTimeout. A
	// request that times out is not tried again.
	Timeout time.Duration
	// Retry replaces the default retry policy; nil: six tries.
	Retry *httpapi.Policy
}

// DefaultTimeout bounds one request when bcindex.enhance.timeout is not
// set: a local model on a CPU writes a batch of summaries in a minute or
// two.
const DefaultTimeout = 5 * time.Minute

// ConfigError is a configuration mistake; Key names the git config key.
type ConfigError struct {
	Key  string
	Msg  string
	Hint string // what to do, when setting Key is not it
}

func (e *ConfigError) Error() string { return fmt.Sprintf("git config %s: %s", e.Key, e.Msg) }

// ErrNotConfigured reports that no chat service is configured: the LLM
// features are opt-in.
var ErrNotConfigured = &ConfigError{Key: "bcindex.enhance.url", Msg: "is not set: the LLM features are off until a chat-completions API is configured (see doc/llm.md), e.g. `git config bcindex.enhance.url http://127.0.0.1:11434/v1` and `git config bcindex.enhance.model qwen2.5-coder:7b`"}

var envName = lazyre.New(`^[A-Za-z_][A-Za-z0-9_]*$`)

// ReadConfig reads the bcindex.enhance.* keys through get ("url", "model",
// "keyEnv"); a key pasted into git config is refused.
func ReadConfig(get func(key string) string) (Config, error) {
	cfg := Config{URL: strings.TrimSpace(get("url")), Model: strings.TrimSpace(get("model")), KeyEnv: strings.TrimSpace(get("keyEnv"))}
	for _, k := range []string{"key", "apiKey", "token"} {
		if get(k) != "" {
			return cfg, &ConfigError{Key: "bcindex.enhance." + k, Msg: "keys are not read from git config",
				Hint: fmt.Sprintf("remove it (`git config --unset bcindex.enhance.%s`), export the key in an environment variable, and name the variable with `git config bcindex.enhance.keyEnv VARIABLE`", k)}
		}
	}
	if t := strings.TrimSpace(get("timeout")); t != "" {
		d, err := time.ParseDuration(t)
		if err != nil || d <= 0 {
			return cfg, &ConfigError{Key: "bcindex.enhance.timeout", Msg: fmt.Sprintf("%q: want a positive duration such as 90s or 10m", t)}
		}
		cfg.Timeout = d
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
	if c.KeyEnv != "" && !envName().MatchString(c.KeyEnv) {
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
