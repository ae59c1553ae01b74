package gitindex

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/config"
	format "github.com/go-git/go-git/v5/plumbing/format/config"
)

// Config reads the repository's git config merged over the global one,
// then the settings git passes to the commands it runs: `git -c key=value`
// (GIT_CONFIG_PARAMETERS) and GIT_CONFIG_COUNT with GIT_CONFIG_KEY_n and
// GIT_CONFIG_VALUE_n, which override the files, as they do for git's own
// commands. Every setting bcindex reads comes through here.
func (r *Repo) Config() (*config.Config, error) {
	cfg, err := r.Git.ConfigScoped(config.GlobalScope)
	if err != nil {
		if cfg, err = r.Git.Config(); err != nil {
			return nil, fmt.Errorf("read git config: %w", err)
		}
	}
	if err := ApplyConfigEnv(cfg.Raw); err != nil {
		return nil, err
	}
	return cfg, nil
}

// ApplyConfigEnv adds the settings of the environment git passes to a
// command (see Repo.Config) after those of raw, so that they win.
func ApplyConfigEnv(raw *format.Config) error {
	if n := os.Getenv("GIT_CONFIG_COUNT"); n != "" {
		count, err := strconv.Atoi(n)
		if err != nil || count < 0 {
			return fmt.Errorf("bogus count in GIT_CONFIG_COUNT: %q", n)
		}
		for i := 0; i < count; i++ {
			key, ok := os.LookupEnv(fmt.Sprintf("GIT_CONFIG_KEY_%d", i))
			if !ok {
				return fmt.Errorf("missing config key GIT_CONFIG_KEY_%d", i)
			}
			value, ok := os.LookupEnv(fmt.Sprintf("GIT_CONFIG_VALUE_%d", i))
			if !ok {
				return fmt.Errorf("missing config value GIT_CONFIG_VALUE_%d", i)
			}
			if err := setConfig(raw, key, value); err != nil {
				return err
			}
		}
	}
	params := os.Getenv("GIT_CONFIG_PARAMETERS")
	pairs, err := parseConfigParameters(params)
	if err != nil {
		return fmt.Errorf("bogus format in GIT_CONFIG_PARAMETERS: %w", err)
	}
	for _, p := range pairs {
		if err := setConfig(raw, p[0], p[1]); err != nil {
			return err
		}
	}
	return nil
}

// parseConfigParameters reads GIT_CONFIG_PARAMETERS: shell single-quoted
// words separated by spaces, each 'key'='value', 'key' (no value: true),
// or the older 'key=value'.
func parseConfigParameters(s string) ([][2]string, error) {
	var out [][2]string
	for {
		s = strings.TrimLeft(s, " \t\n")
		if s == "" {
			return out, nil
		}
		key, rest, err := sqDequote(s)
		if err != nil {
			return nil, err
		}
		switch {
		case strings.HasPrefix(rest, "="):
			rest = rest[1:]
			value := "true"
			if strings.HasPrefix(rest, "'") {
				if value, rest, err = sqDequote(rest); err != nil {
					return nil, err
				}
			}
			out = append(out, [2]string{key, value})
		default:
			k, v, ok := strings.Cut(key, "=")
			if !ok {
				v = "true"
			}
			out = append(out, [2]string{k, v})
		}
		if rest != "" && !strings.ContainsRune(" \t\n", rune(rest[0])) {
			return nil, fmt.Errorf("unexpected %q", rest)
		}
		s = rest
	}
}

// sqDequote reads one single-quoted word at the start of s ('it'\”s' is
// "it's") and returns it and what follows.
func sqDequote(s string) (string, string, error) {
	if !strings.HasPrefix(s, "'") {
		return "", "", fmt.Errorf("expected a quote at %q", s)
	}
	var b strings.Builder
	i := 1
	for {
		j := strings.IndexByte(s[i:], '\'')
		if j < 0 {
			return "", "", fmt.Errorf("unterminated quote in %q", s)
		}
		b.WriteString(s[i : i+j])
		i += j + 1
		// '\'' and '\!' carry a quote or '!' between quoted runs.
		if i+2 < len(s) && s[i] == '\\' && (s[i+1] == '\'' || s[i+1] == '!') && s[i+2] == '\'' {
			b.WriteByte(s[i+1])
			i += 3
			continue
		}
		return b.String(), s[i:], nil
	}
}

// setConfig adds key (section[.subsection].name) = value to raw.
func setConfig(raw *format.Config, key, value string) error {
	first := strings.IndexByte(key, '.')
	last := strings.LastIndexByte(key, '.')
	if first <= 0 || last == len(key)-1 {
		return fmt.Errorf("invalid config key %q in the environment", key)
	}
	section, name := strings.ToLower(key[:first]), strings.ToLower(key[last+1:])
	sec := raw.Section(section)
	if first == last {
		sec.AddOption(name, value)
		return nil
	}
	sec.Subsection(key[first+1:last]).AddOption(name, value)
	return nil
}
