package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/config"
)

// checkGrepConfig refuses, as git grep does when it reads its
// configuration, a value of the settings it reads that is not of their
// type: "fatal: bad boolean config value 'V' for 'grep.linenumber'".
func checkGrepConfig(cfg *config.Config) error {
	if cfg == nil {
		return nil
	}
	for _, k := range []struct{ section, key string }{
		{"core", "quotePath"}, {"grep", "lineNumber"}, {"grep", "column"}, {"grep", "fullName"},
		{"grep", "extendedRegexp"}, {"grep", "fallbackToNoIndex"},
	} {
		for _, v := range cfg.Raw.Section(k.section).Options.GetAll(k.key) {
			if _, ok := gitBool(v); !ok {
				return gitFatal{fmt.Sprintf("bad boolean config value '%s' for '%s.%s'", v, k.section, strings.ToLower(k.key))}
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
				return gitFatal{fmt.Sprintf("bad boolean config value '%s' for 'color.%s'", v, key)}
			}
		}
	}
	for _, v := range cfg.Raw.Section("grep").Options.GetAll("threads") {
		if _, ok := gitInt(v); !ok {
			return gitFatal{fmt.Sprintf("bad numeric config value '%s' for 'grep.threads': invalid unit", v)}
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
