package gitgrep

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/config"
)

// checkConfig refuses, as git grep does when it reads its
// configuration, a value of the settings it reads that is not of their
// type: "fatal: bad boolean config value 'V' for 'grep.linenumber'".
func checkConfig(cfg *config.Config) error {
	if cfg == nil {
		return nil
	}
	for _, k := range []struct{ section, key string }{
		{"core", "quotePath"}, {"grep", "lineNumber"}, {"grep", "column"}, {"grep", "fullName"},
		{"grep", "extendedRegexp"}, {"grep", "fallbackToNoIndex"},
	} {
		for _, v := range cfg.Raw.Section(k.section).Options.GetAll(k.key) {
			if _, ok := gitBool(v); !ok {
				return Fatal{fmt.Sprintf("bad boolean config value '%s' for '%s.%s'", v, k.section, strings.ToLower(k.key))}
			}
		}
	}
	for _, key := range []string{"ui", "grep"} {
		for _, v := range cfg.Raw.Section("color").Options.GetAll(key) {
			switch strings.ToLower(v) {
			case "always", "never", "auto":
				continue
			}
			if _, ok := gitBool(v); !ok {
				return Fatal{fmt.Sprintf("bad boolean config value '%s' for 'color.%s'", v, key)}
			}
		}
	}
	for _, v := range cfg.Raw.Section("grep").Options.GetAll("threads") {
		if _, ok := gitInt(v); !ok {
			return Fatal{fmt.Sprintf("bad numeric config value '%s' for 'grep.threads': invalid unit", v)}
		}
	}
	return nil
}

// gitBool reads a boolean as git_config_bool does: true, yes, on, false,
// no, off (any case), "" (false), or an integer.
func gitBool(v string) (bool, bool) {
	switch strings.ToLower(v) {
	case "true", "yes", "on":
		return true, true
	case "false", "no", "off", "":
		return false, true
	}
	n, ok := gitInt(v)
	return n != 0, ok
}

// gitInt reads an integer with an optional k, m or g unit, as git does.
func gitInt(v string) (int64, bool) {
	mult := int64(1)
	switch {
	case strings.HasSuffix(strings.ToLower(v), "k"):
		mult = 1 << 10
	case strings.HasSuffix(strings.ToLower(v), "m"):
		mult = 1 << 20
	case strings.HasSuffix(strings.ToLower(v), "g"):
		mult = 1 << 30
	}
	if mult > 1 {
		v = v[:len(v)-1]
	}
	n, err := strconv.ParseInt(v, 0, 64)
	return n * mult, err == nil
}

// configure reads the configuration that sets git grep's defaults.
func (g *runner) configure() error {
	cfg := g.env.Config
	if g.repo == nil || cfg == nil {
		return nil
	}
	if err := checkConfig(cfg); err != nil {
		return err
	}
	sec := cfg.Raw.Section("grep")
	boolCfg := func(key string, into *optBool) {
		if v := sec.Option(key); v != "" && !into.set {
			into.on = configBool(v)
		}
	}
	boolCfg("lineNumber", &g.o.lineNumber)
	boolCfg("column", &g.o.column)
	boolCfg("fullName", &g.o.fullName)
	if g.o.syntax == patternUnset {
		switch strings.ToLower(sec.Option("patternType")) {
		case "basic":
			g.o.syntax = patternBRE
		case "extended":
			g.o.syntax = patternERE
		case "fixed":
			g.o.syntax = patternFixed
		case "perl":
			g.o.syntax = patternPCRE
		case "", "default":
			if configBool(sec.Option("extendedRegexp")) {
				g.o.syntax = patternERE
			}
		default:
			return Fatal{"bad grep.patterntype argument: " + sec.Option("patternType")}
		}
	}
	return nil
}

// configBool reads a boolean as git does ("" is false here: unset).
func configBool(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "true", "yes", "on", "1":
		return true
	}
	n, err := strconv.Atoi(strings.TrimSpace(v))
	return err == nil && n != 0
}
