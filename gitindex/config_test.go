package gitindex

import (
	"testing"

	"github.com/bcindex/bcindex/internal/testkit/gittest"
)

// TestConfigFromEnvironment: the settings git passes to the commands it
// runs (git -c, in both the quoted forms git has written, and
// GIT_CONFIG_COUNT) override the repository's config.
func TestConfigFromEnvironment(t *testing.T) {
	r := gittest.New(t)
	r.Git("config", "grep.lineNumber", "false")
	r.Git("config", "bcindex.enhance.url", "http://from-file")
	repo, err := OpenRepo(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		env              map[string]string
		line, url, color string
	}{
		{nil, "false", "http://from-file", ""},
		{map[string]string{"GIT_CONFIG_PARAMETERS": `'grep.lineNumber'='true' 'bcindex.enhance.URL'='http://x/it'\''s' 'color.ui'`}, "true", "http://x/it's", "true"},
		{map[string]string{"GIT_CONFIG_PARAMETERS": `'grep.linenumber=true' 'color.UI=always'`}, "true", "http://from-file", "always"},
		{map[string]string{"GIT_CONFIG_COUNT": "2", "GIT_CONFIG_KEY_0": "grep.lineNumber", "GIT_CONFIG_VALUE_0": "true",
			"GIT_CONFIG_KEY_1": "bcindex.enhance.url", "GIT_CONFIG_VALUE_1": "http://count"}, "true", "http://count", ""},
		// GIT_CONFIG_PARAMETERS is read after the count, so it wins.
		{map[string]string{"GIT_CONFIG_COUNT": "1", "GIT_CONFIG_KEY_0": "grep.lineNumber", "GIT_CONFIG_VALUE_0": "true",
			"GIT_CONFIG_PARAMETERS": `'grep.lineNumber'='no'`}, "no", "http://from-file", ""},
	} {
		t.Run("", func(t *testing.T) {
			for _, k := range []string{"GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT"} {
				t.Setenv(k, "")
			}
			for k, v := range c.env {
				t.Setenv(k, v)
			}
			cfg, err := repo.Config()
			if err != nil {
				t.Fatal(err)
			}
			if got := cfg.Raw.Section("grep").Option("lineNumber"); got != c.line {
				t.Errorf("grep.lineNumber = %q, want %q", got, c.line)
			}
			if got := cfg.Raw.Section("bcindex").Subsection("enhance").Option("url"); got != c.url {
				t.Errorf("bcindex.enhance.url = %q, want %q", got, c.url)
			}
			if got := cfg.Raw.Section("color").Option("ui"); got != c.color {
				t.Errorf("color.ui = %q, want %q", got, c.color)
			}
		})
	}
	for _, bad := range []map[string]string{
		{"GIT_CONFIG_PARAMETERS": `'unterminated`},
		{"GIT_CONFIG_PARAMETERS": `'nodot'='x'`},
		{"GIT_CONFIG_COUNT": "1"},
		{"GIT_CONFIG_COUNT": "x"},
	} {
		for _, k := range []string{"GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT"} {
			t.Setenv(k, "")
		}
		for k, v := range bad {
			t.Setenv(k, v)
		}
		if _, err := repo.Config(); err == nil {
			t.Errorf("%v: no error", bad)
		}
	}
}
