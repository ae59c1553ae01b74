package agents

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
	"github.com/tailscale/hujson"
)

// Each agent's files are read back with the parser of their format:
// encoding/json for the strict JSON ones (Claude Code, Cursor, Gemini
// CLI), hujson then encoding/json for those with comments (VS Code, Zed,
// opencode), a TOML parser for Codex.

// testEnv is a repository directory and a home directory, both empty,
// on Linux with nothing on PATH.
func testEnv(t *testing.T) Env {
	t.Helper()
	return Env{Root: t.TempDir(), Home: t.TempDir(), GOOS: "linux",
		Getenv:   func(string) string { return "" },
		LookPath: func(p string) (string, error) { return "", errors.New("not found") }}
}

// entryOf parses an agent's file and returns the server entry, as data.
func entryOf(t *testing.T, a Agent, data []byte) any {
	t.Helper()
	if a.Key == "" {
		var cfg struct {
			MCPServers map[string]any `toml:"mcp_servers"`
		}
		if _, err := toml.Decode(string(data), &cfg); err != nil {
			t.Fatalf("%s: not TOML: %v\n%s", a.Name, err, data)
		}
		return cfg.MCPServers[ServerName]
	}
	std := data
	if a.Name == "vscode" || a.Name == "zed" || a.Name == "opencode" {
		var err error
		if std, err = hujson.Standardize(append([]byte{}, data...)); err != nil {
			t.Fatalf("%s: not JSON with comments: %v\n%s", a.Name, err, data)
		}
	}
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(std, &doc); err != nil {
		t.Fatalf("%s: not JSON: %v\n%s", a.Name, err, data)
	}
	var srv map[string]any
	if err := json.Unmarshal(doc[a.Key], &srv); err != nil {
		t.Fatalf("%s: %s is not an object: %v\n%s", a.Name, a.Key, err, data)
	}
	return srv[ServerName]
}

// documented is each agent's entry as its documentation writes one.
var documented = map[string]any{
	"claude":   map[string]any{"type": "stdio", "command": "git", "args": []any{"bcindex", "mcp"}},
	"codex":    map[string]any{"command": "git", "args": []any{"bcindex", "mcp"}},
	"cursor":   map[string]any{"command": "git", "args": []any{"bcindex", "mcp"}},
	"vscode":   map[string]any{"type": "stdio", "command": "git", "args": []any{"bcindex", "mcp"}},
	"gemini":   map[string]any{"command": "git", "args": []any{"bcindex", "mcp"}},
	"opencode": map[string]any{"type": "local", "command": []any{"git", "bcindex", "mcp"}, "enabled": true},
	"zed":      map[string]any{"command": "git", "args": []any{"bcindex", "mcp"}, "env": map[string]any{}},
}

func apply(t *testing.T, e Env, cs []Change) {
	t.Helper()
	for _, c := range cs {
		if c.Err != nil {
			t.Fatalf("%s: %v", c.Path, c.Err)
		}
		top := e.Root
		if !strings.HasPrefix(c.Path, e.Root+string(filepath.Separator)) {
			top = e.Home
		}
		if err := c.Apply(top); err != nil {
			t.Fatal(err)
		}
	}
}

// TestInstallFreshProject: with no agent named, every agent's project
// file is created in its format and place, with the entry its
// documentation shows; installing again changes nothing; uninstalling
// leaves the repository as it was.
func TestInstallFreshProject(t *testing.T) {
	e := testEnv(t)
	cs, err := Install(e, Options{Instructions: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) != len(All)+2 {
		t.Fatalf("%d changes, want one per agent and AGENTS.md, CLAUDE.md", len(cs))
	}
	apply(t, e, cs)
	want := map[string]string{"claude": ".mcp.json", "codex": ".codex/config.toml", "cursor": ".cursor/mcp.json", "vscode": ".vscode/mcp.json",
		"gemini": ".gemini/settings.json", "opencode": "opencode.json", "zed": ".zed/settings.json"}
	for _, a := range All {
		data, err := os.ReadFile(filepath.Join(e.Root, want[a.Name]))
		if err != nil {
			t.Fatalf("%s: %v", a.Name, err)
		}
		if got := entryOf(t, a, data); !reflect.DeepEqual(got, documented[a.Name]) {
			t.Errorf("%s: entry %v, want %v", a.Name, got, documented[a.Name])
		}
	}
	if data, _ := os.ReadFile(filepath.Join(e.Root, "opencode.json")); !bytes.Contains(data, []byte(`"$schema": "https://opencode.ai/config.json"`)) {
		t.Errorf("opencode.json without its schema:\n%s", data)
	}
	for _, f := range []string{"AGENTS.md", "CLAUDE.md"} {
		data, _ := os.ReadFile(filepath.Join(e.Root, f))
		for _, tool := range []string{"`search`", "`grep`", "`history`", "`read_file`", "`get_chunk`"} {
			if !bytes.Contains(data, []byte(tool)) {
				t.Errorf("%s does not mention %s", f, tool)
			}
		}
	}
	again, _ := Install(e, Options{Instructions: true})
	for _, c := range again {
		if c.Changed() {
			t.Errorf("second install changes %s:\n%s", c.Path, c.Diff(c.Path))
		}
	}
	for _, s := range Status(e) {
		if !s.User && s.What != "installed" {
			t.Errorf("status %s: %s", s.Path, s.What)
		}
	}
	cs, err = Uninstall(e, Options{})
	if err != nil {
		t.Fatal(err)
	}
	apply(t, e, cs)
	left, _ := os.ReadDir(e.Root)
	if len(left) != 0 {
		var names []string
		for _, l := range left {
			names = append(names, l.Name())
		}
		t.Errorf("uninstall left %v", names)
	}
}

// existing is a lived-in configuration file per agent: other servers,
// other settings, comments where the format allows them, a trailing
// comma in the JSON-with-comments ones.
var existing = map[string]string{
	"claude":   "{\n  \"mcpServers\": {\n    \"github\": {\n      \"command\": \"gh-mcp\"\n    }\n  },\n  \"numStartups\": 12\n}\n",
	"codex":    "# my Codex settings\nmodel = \"o4-mini\" # fast\n\n[mcp_servers.docs]\ncommand = \"docs-mcp\"\nargs = [\"--stdio\"]\n\n[tui]\nnotifications = true\n",
	"cursor":   "{\n\t\"mcpServers\": {\n\t\t\"figma\": {\n\t\t\t\"url\": \"http://127.0.0.1:3845/sse\"\n\t\t}\n\t}\n}\n",
	"vscode":   "{\n  // Servers for this workspace\n  \"servers\": {\n    \"playwright\": {\n      \"command\": \"npx\",\n      \"args\": [\"@playwright/mcp@latest\"], // pinned later\n    },\n  },\n  \"inputs\": [],\n}\n",
	"gemini":   "{\n  \"theme\": \"GitHub\",\n  \"mcpServers\": {}\n}\n",
	"opencode": "{\n  \"$schema\": \"https://opencode.ai/config.json\",\n  // the model we use\n  \"model\": \"anthropic/claude-sonnet-4-5\",\n}\n",
	"zed":      "// Zed settings\n//\n// For information on how to configure Zed, see the Zed documentation.\n{\n  \"theme\": \"One Dark\", // dark\n  \"context_servers\": {\n    /* a local one */\n    \"postgres\": {\"command\": \"pg-mcp\", \"args\": [], \"env\": {}}\n  }\n}\n",
}

// TestInstallMergesAndUninstallRestores: into lived-in files, install
// adds one entry and touches nothing else (the other entries, settings
// and comments read back the same); uninstall gives back the file byte
// for byte; the user scope (a temporary HOME) works the same.
func TestInstallMergesAndUninstallRestores(t *testing.T) {
	for _, user := range []bool{false, true} {
		e := testEnv(t)
		for _, a := range All {
			p := a.Path(e, user)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(existing[a.Name]), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		names := strings.Split(strings.ReplaceAll(Names(), " ", ""), ",")
		cs, err := Install(e, Options{User: user, Agents: names})
		if err != nil {
			t.Fatal(err)
		}
		apply(t, e, cs)
		for _, a := range All {
			p := a.Path(e, user)
			data, _ := os.ReadFile(p)
			if got := entryOf(t, a, data); !reflect.DeepEqual(got, documented[a.Name]) {
				t.Errorf("%s (user %v): entry %v in\n%s", a.Name, user, got, data)
			}
			for _, line := range strings.Split(existing[a.Name], "\n") {
				if line = strings.TrimSpace(line); line != "" && line != "}" && line != `"mcpServers": {}` && !bytes.Contains(data, []byte(line)) {
					t.Errorf("%s (user %v): line %q is gone:\n%s", a.Name, user, line, data)
				}
			}
			if fi, _ := os.Stat(p); fi.Mode().Perm() != 0o600 {
				t.Errorf("%s: mode %v, want the file's own 0600", a.Name, fi.Mode().Perm())
			}
		}
		if strings.Contains(string(mustRead(t, All[1].Path(e, user))), "mcp_servers.bcindex]\ncommand") == false {
			t.Errorf("codex: no table")
		}
		cs, err = Uninstall(e, Options{User: user, Agents: names})
		if err != nil {
			t.Fatal(err)
		}
		apply(t, e, cs)
		for _, a := range All {
			want := existing[a.Name]
			if a.Name == "gemini" {
				// An empty servers object goes with the entry: nothing
				// says whether install made it.
				want = "{\n  \"theme\": \"GitHub\"\n}\n"
			}
			if got := string(mustRead(t, a.Path(e, user))); got != want {
				t.Errorf("%s (user %v): after uninstall\n%s\nwant\n%s", a.Name, user, got, want)
			}
		}
	}
}

func mustRead(t *testing.T, p string) []byte {
	t.Helper()
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestForeignEntryLeftAlone: an entry named bcindex written by hand is
// neither replaced by install nor removed by uninstall, and both say so.
func TestForeignEntryLeftAlone(t *testing.T) {
	e := testEnv(t)
	hand := "{\"mcpServers\": {\"bcindex\": {\"command\": \"/opt/bin/git-bcindex\", \"args\": [\"mcp\"]}}}\n"
	p := filepath.Join(e.Root, ".mcp.json")
	os.WriteFile(p, []byte(hand), 0o644)
	toml := "[mcp_servers.bcindex]\ncommand = \"git-bcindex\"\nargs = [\"mcp\"]\n"
	os.MkdirAll(filepath.Join(e.Root, ".codex"), 0o755)
	os.WriteFile(filepath.Join(e.Root, ".codex", "config.toml"), []byte(toml), 0o644)
	for _, op := range []func(Env, Options) ([]Change, error){Install, Uninstall} {
		cs, err := op(e, Options{Agents: []string{"claude", "codex"}})
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cs {
			if c.Changed() || !strings.Contains(c.Note, "not as bcindex writes it") {
				t.Errorf("%s: changed %v, note %q", c.Path, c.Changed(), c.Note)
			}
		}
		apply(t, e, cs)
	}
	if string(mustRead(t, p)) != hand {
		t.Errorf(".mcp.json changed")
	}
	for _, s := range Status(e) {
		if !s.User && (s.Agent == "claude" || s.Agent == "codex") && s.What != "other entry" {
			t.Errorf("status %s: %s", s.Agent, s.What)
		}
	}
}

// TestBrokenFileIsReported: a file that does not parse is reported with
// its path and left alone; the other agents are installed.
func TestBrokenFileIsReported(t *testing.T) {
	e := testEnv(t)
	p := filepath.Join(e.Root, ".mcp.json")
	os.WriteFile(p, []byte("{\"mcpServers\": {"), 0o644)
	cs, _ := Install(e, Options{Agents: []string{"claude", "cursor"}})
	if cs[0].Err == nil || !strings.Contains(cs[0].Err.Error(), p) || cs[0].Changed() {
		t.Errorf("broken .mcp.json: %+v", cs[0])
	}
	if cs[1].Err != nil || !cs[1].Changed() {
		t.Errorf("cursor: %+v", cs[1])
	}
}

// TestInstructionsSection: the section is appended to an existing
// AGENTS.md after its content, replaced in place when its wording
// changes, and cut out by uninstall, giving back the file.
func TestInstructionsSection(t *testing.T) {
	e := testEnv(t)
	mine := "# Agents\n\nRun `make test` before committing.\n"
	p := filepath.Join(e.Root, "AGENTS.md")
	os.WriteFile(p, []byte(mine), 0o644)
	cs, _ := Install(e, Options{Agents: []string{"codex"}, Instructions: true})
	apply(t, e, cs)
	got := string(mustRead(t, p))
	if !strings.HasPrefix(got, mine+"\n"+beginMark) || !strings.HasSuffix(got, endMark+"\n") {
		t.Fatalf("AGENTS.md:\n%s", got)
	}
	old := strings.Replace(got, "Ranked chunks", "Chunks", 1)
	os.WriteFile(p, []byte(old+"\nMore of mine.\n"), 0o644)
	cs, _ = Install(e, Options{Agents: []string{"codex"}, Instructions: true})
	apply(t, e, cs)
	if got := string(mustRead(t, p)); got != mine+"\n"+section()+"\nMore of mine.\n" {
		t.Errorf("section not replaced in place:\n%s", got)
	}
	os.WriteFile(p, []byte(mine+"\n"+section()), 0o644)
	cs, _ = Uninstall(e, Options{Agents: []string{"codex"}})
	apply(t, e, cs)
	if got := string(mustRead(t, p)); got != mine {
		t.Errorf("after uninstall:\n%q", got)
	}
	// An agent that stays installed and reads AGENTS.md keeps the section.
	cs, _ = Install(e, Options{Agents: []string{"codex", "cursor"}, Instructions: true})
	apply(t, e, cs)
	cs, _ = Uninstall(e, Options{Agents: []string{"codex"}})
	apply(t, e, cs)
	if !hasSection(mustRead(t, p)) {
		t.Errorf("uninstalling codex removed the section cursor still needs")
	}
}

// TestUserScopePaths: the user's files are where each agent documents
// them, and with no agent named only the agents present are chosen.
func TestUserScopePaths(t *testing.T) {
	e := testEnv(t)
	want := map[string]string{"claude": ".claude.json", "codex": ".codex/config.toml", "cursor": ".cursor/mcp.json",
		"vscode": ".config/Code/User/mcp.json", "gemini": ".gemini/settings.json", "opencode": ".config/opencode/opencode.json", "zed": ".config/zed/settings.json"}
	for _, a := range All {
		if got := a.Path(e, true); got != filepath.Join(e.Home, want[a.Name]) {
			t.Errorf("%s: %s", a.Name, got)
		}
	}
	mac := e
	mac.GOOS = "darwin"
	if got, _ := Find("vscode"); got.Path(mac, true) != filepath.Join(e.Home, "Library/Application Support/Code/User/mcp.json") {
		t.Errorf("vscode on macOS: %s", got.Path(mac, true))
	}
	os.MkdirAll(filepath.Join(e.Home, ".gemini"), 0o755)
	e.LookPath = func(p string) (string, error) {
		if p == "codex" {
			return "/usr/bin/codex", nil
		}
		return "", errors.New("no")
	}
	sel, _ := Select(e, Options{User: true})
	var names []string
	for _, a := range sel {
		names = append(names, a.Name)
	}
	if strings.Join(names, ",") != "codex,gemini" {
		t.Errorf("present agents: %v", names)
	}
	if _, err := Select(e, Options{Agents: []string{"kiro"}}); err == nil || !strings.Contains(err.Error(), "claude, codex") {
		t.Errorf("unknown agent: %v", err)
	}
}

// TestDryRunDiff: the diff shows the lines added, in context.
func TestDryRunDiff(t *testing.T) {
	e := testEnv(t)
	p := filepath.Join(e.Root, ".mcp.json")
	os.WriteFile(p, []byte(existing["claude"]), 0o644)
	cs, _ := Install(e, Options{Agents: []string{"claude"}})
	d := cs[0].Diff(".mcp.json")
	for _, want := range []string{"--- a/.mcp.json", "+++ b/.mcp.json", "@@ -3,4 +3,12 @@", "+    \"bcindex\": {\n", "+      \"type\": \"stdio\","} {
		if !strings.Contains(d, want) {
			t.Errorf("diff lacks %q:\n%s", want, d)
		}
	}
	if string(mustRead(t, p)) != existing["claude"] {
		t.Errorf("planning wrote the file")
	}
}

// TestLineCommentStays: a comment at the end of the last member's line
// stays on that line when install adds bcindex after it, with or without
// a trailing comma, and uninstall gives back the file byte for byte.
func TestLineCommentStays(t *testing.T) {
	a, _ := Find("vscode")
	for _, in := range []string{
		"{\n  \"servers\": {\n    \"other\": {\"command\": \"x\"} // other server\n  }\n}\n",
		"{\n  \"servers\": {\n    \"other\": {\"command\": \"x\"}, // other server\n  }\n}\n",
		"{\n  \"inputs\": [] // none yet\n}\n",
		"{\n  \"servers\": {\n    \"other\": {\"command\": \"x\"} /* a\n    b */\n  }\n}\n",
	} {
		out, err := installJSON(a, []byte(in))
		if err != nil {
			t.Fatalf("install into\n%s: %v", in, err)
		}
		first := strings.SplitAfter(in, "\n")[2]
		if first == "}\n" {
			first = strings.SplitAfter(in, "\n")[1]
		}
		want := strings.TrimRight(first, "\n")
		if !strings.Contains(want, ",") {
			want = strings.Replace(strings.Replace(want, " //", ", //", 1), " /*", ", /*", 1)
		}
		if !strings.Contains(string(out), want+"\n") {
			t.Errorf("install moved the comment of %q:\n%s", want, out)
		}
		if got := entryOf(t, a, out); !reflect.DeepEqual(got, documented["vscode"]) {
			t.Errorf("entry %v in\n%s", got, out)
		}
		back, err := uninstallJSON(a, out)
		if err != nil {
			t.Fatal(err)
		}
		if string(back) != in {
			t.Errorf("uninstall gave\n%s\nwant\n%s", back, in)
		}
	}
}
