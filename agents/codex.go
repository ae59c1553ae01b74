package agents

import (
	"bytes"
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"
)

// Codex keeps its servers in TOML tables, [mcp_servers.NAME]. Install
// appends a table of its own, after a comment that marks it; uninstall
// cuts that exact text out again. A TOML parser checks both the file as
// found and the file as it would be written.

// codexBlock is the text install appends.
func codexBlock() string {
	args := make([]string, len(command)-1)
	for i, a := range command[1:] {
		args[i] = strconv.Quote(a)
	}
	return "# Code search for coding agents: `git bcindex agents uninstall` removes this table.\n" +
		"[mcp_servers." + ServerName + "]\n" +
		"command = " + strconv.Quote(command[0]) + "\n" +
		"args = [" + strings.Join(args, ", ") + "]\n"
}

// codexServer is the table as Codex reads it.
type codexConfig struct {
	MCPServers map[string]map[string]any `toml:"mcp_servers"`
}

// stateTOML says whether data holds bcindex's table.
func stateTOML(data []byte) (jsonState, error) {
	var cfg codexConfig
	if _, err := toml.Decode(string(data), &cfg); err != nil {
		return absent, err
	}
	srv, ok := cfg.MCPServers[ServerName]
	if !ok {
		return absent, nil
	}
	want := map[string]any{"command": command[0], "args": toAny(command[1:])}
	if reflect.DeepEqual(srv, want) && bytes.Contains(data, []byte(codexBlock())) {
		return ours, nil
	}
	return foreign, nil
}

func toAny(s []string) []any {
	out := make([]any, len(s))
	for i, v := range s {
		out[i] = v
	}
	return out
}

// installTOML returns data with bcindex's table appended.
func installTOML(data []byte) ([]byte, error) {
	st, err := stateTOML(data)
	if err != nil || st == ours {
		return data, err
	}
	if st == foreign {
		return data, errNotOurs
	}
	out := append([]byte{}, data...)
	if len(bytes.TrimSpace(out)) > 0 {
		if !bytes.HasSuffix(out, []byte("\n")) {
			out = append(out, '\n')
		}
		out = append(out, '\n')
	}
	out = append(out, codexBlock()...)
	if st, err := stateTOML(out); err != nil || st != ours {
		return nil, fmt.Errorf("the table bcindex would append does not read back (%v): the file is left as it is", err)
	}
	return out, nil
}

// uninstallTOML cuts bcindex's table (and the blank line install put
// before it) out of data; nil when nothing else is left.
func uninstallTOML(data []byte) ([]byte, error) {
	st, err := stateTOML(data)
	if err != nil || st == absent {
		return data, err
	}
	if st == foreign {
		return data, errNotOurs
	}
	block := []byte(codexBlock())
	i := bytes.Index(data, block)
	start, end := i, i+len(block)
	if start >= 2 && data[start-1] == '\n' && data[start-2] == '\n' {
		start-- // the blank line before the table
	}
	out := append(append([]byte{}, data[:start]...), data[end:]...)
	if len(bytes.TrimSpace(out)) == 0 {
		return nil, nil
	}
	if _, err := stateTOML(out); err != nil {
		return nil, fmt.Errorf("the file without bcindex's table does not parse (%v): it is left as it is", err)
	}
	return out, nil
}
