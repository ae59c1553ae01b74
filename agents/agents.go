package agents

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// ServerName is the name bcindex's MCP server is registered under.
const ServerName = "bcindex"

// command is how every agent starts the server: in the directory it
// works in, which is the repository.
var command = []string{"git", "bcindex", "mcp"}

// Agent is one coding agent bcindex can register with.
type Agent struct {
	Name  string // for --agent
	Title string
	// Project is the configuration file in the repository (slash-separated,
	// relative to its root); Alt, when it exists, is used instead.
	Project, ProjectAlt string
	// User returns the user-level configuration file.
	User func(e Env) string
	// Programs are commands whose presence on PATH says the agent is
	// installed.
	Programs []string
	// Key is the object the servers live in ("mcpServers"), for JSON files;
	// empty for Codex's TOML.
	Key string
	// Entry is the server's value in that object, as compact JSON with its
	// keys in the order the agent's documentation writes them.
	Entry string
	// Skeleton is what a new file holds besides the servers (opencode's
	// $schema), as compact JSON members without braces; "" for none.
	Skeleton string
	// Instructions is the file the marked section goes in.
	Instructions string
}

// Env is where the files are: the repository and the user's home.
type Env struct {
	Root   string // the repository's top directory
	Home   string
	GOOS   string              // runtime.GOOS unless set
	Getenv func(string) string // os.Getenv unless set
	// LookPath finds a program (exec.LookPath unless set).
	LookPath func(string) (string, error)
}

func (e Env) goos() string {
	if e.GOOS == "" {
		return runtime.GOOS
	}
	return e.GOOS
}

func (e Env) getenv(k string) string {
	if e.Getenv == nil {
		return os.Getenv(k)
	}
	return e.Getenv(k)
}

// config is the user's configuration directory: XDG_CONFIG_HOME or
// ~/.config on Linux (and for Zed and opencode on macOS, as they do),
// APPDATA on Windows.
func (e Env) config() string {
	if e.goos() == "windows" && e.getenv("APPDATA") != "" {
		return e.getenv("APPDATA")
	}
	if x := e.getenv("XDG_CONFIG_HOME"); x != "" && filepath.IsAbs(x) {
		return x
	}
	return filepath.Join(e.Home, ".config")
}

// appSupport is where VS Code keeps the user's settings.
func (e Env) appSupport() string {
	switch e.goos() {
	case "darwin":
		return filepath.Join(e.Home, "Library", "Application Support")
	default:
		return e.config()
	}
}

func home(parts ...string) func(Env) string {
	return func(e Env) string { return filepath.Join(append([]string{e.Home}, parts...)...) }
}

// All lists the supported agents, each configured as its documentation
// says (checked against each one's MCP documentation).
var All = []Agent{
	{Name: "claude", Title: "Claude Code", Project: ".mcp.json", User: home(".claude.json"), Programs: []string{"claude"},
		Key: "mcpServers", Entry: `{"type":"stdio","command":"git","args":["bcindex","mcp"]}`, Instructions: "CLAUDE.md"},
	{Name: "codex", Title: "Codex CLI", Project: ".codex/config.toml", Programs: []string{"codex"},
		User: func(e Env) string {
			if h := e.getenv("CODEX_HOME"); h != "" && filepath.IsAbs(h) {
				return filepath.Join(h, "config.toml")
			}
			return filepath.Join(e.Home, ".codex", "config.toml")
		}, Instructions: "AGENTS.md"},
	{Name: "cursor", Title: "Cursor", Project: ".cursor/mcp.json", User: home(".cursor", "mcp.json"), Programs: []string{"cursor", "cursor-agent"},
		Key: "mcpServers", Entry: `{"command":"git","args":["bcindex","mcp"]}`, Instructions: "AGENTS.md"},
	{Name: "vscode", Title: "VS Code (Copilot)", Project: ".vscode/mcp.json", Programs: []string{"code", "code-insiders"},
		User: func(e Env) string { return filepath.Join(e.appSupport(), "Code", "User", "mcp.json") },
		Key:  "servers", Entry: `{"type":"stdio","command":"git","args":["bcindex","mcp"]}`, Instructions: "AGENTS.md"},
	{Name: "gemini", Title: "Gemini CLI", Project: ".gemini/settings.json", User: home(".gemini", "settings.json"), Programs: []string{"gemini"},
		Key: "mcpServers", Entry: `{"command":"git","args":["bcindex","mcp"]}`, Instructions: "AGENTS.md"},
	{Name: "opencode", Title: "opencode", Project: "opencode.json", ProjectAlt: "opencode.jsonc", Programs: []string{"opencode"},
		User: func(e Env) string { return filepath.Join(e.config(), "opencode", "opencode.json") },
		Key:  "mcp", Entry: `{"type":"local","command":["git","bcindex","mcp"],"enabled":true}`,
		Skeleton: `"$schema":"https://opencode.ai/config.json"`, Instructions: "AGENTS.md"},
	{Name: "zed", Title: "Zed", Project: ".zed/settings.json", Programs: []string{"zed", "zeditor"},
		User: func(e Env) string {
			if e.goos() == "windows" {
				return filepath.Join(e.config(), "Zed", "settings.json")
			}
			return filepath.Join(e.config(), "zed", "settings.json")
		},
		Key: "context_servers", Entry: `{"command":"git","args":["bcindex","mcp"],"env":{}}`, Instructions: "AGENTS.md"},
}

// Names lists the agents' names, for help and errors.
func Names() string {
	var n []string
	for _, a := range All {
		n = append(n, a.Name)
	}
	return strings.Join(n, ", ")
}

// Find returns the agent named name.
func Find(name string) (Agent, bool) {
	for _, a := range All {
		if a.Name == strings.ToLower(name) {
			return a, true
		}
	}
	return Agent{}, false
}

// Path is the agent's configuration file in scope.
func (a Agent) Path(e Env, user bool) string {
	if user {
		p := a.User(e)
		if alt := strings.TrimSuffix(p, ".json") + ".jsonc"; a.ProjectAlt != "" && exists(alt) && !exists(p) {
			return alt
		}
		return p
	}
	if a.ProjectAlt != "" {
		if alt := filepath.Join(e.Root, filepath.FromSlash(a.ProjectAlt)); exists(alt) && !exists(filepath.Join(e.Root, filepath.FromSlash(a.Project))) {
			return alt
		}
	}
	return filepath.Join(e.Root, filepath.FromSlash(a.Project))
}

// Present reports whether the agent looks installed for this user: one
// of its programs is on PATH or its user configuration directory exists.
func (a Agent) Present(e Env) bool {
	look := e.LookPath
	for _, p := range a.Programs {
		if look != nil {
			if _, err := look(p); err == nil {
				return true
			}
		}
	}
	return exists(filepath.Dir(a.User(e))) && filepath.Dir(a.User(e)) != e.Home || exists(a.User(e))
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
