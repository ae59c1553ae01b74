package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/urfave/cli/v2"

	"github.com/bcindex/bcindex/agents"
)

func agentsCommand() *cli.Command {
	scope := []cli.Flag{
		&cli.StringSliceFlag{Name: "agent", Aliases: []string{"a"}, Usage: "only `NAME` (repeatable): " + agents.Names()},
		&cli.BoolFlag{Name: "user", Usage: "the user's configuration files (every repository) instead of the repository's"},
	}
	change := append([]cli.Flag{
		&cli.BoolFlag{Name: "dry-run", Aliases: []string{"n"}, Usage: "show the change as a diff; write nothing"},
	}, scope...)
	return &cli.Command{
		Name:  "agents",
		Usage: "register `git bcindex mcp` with coding agents (Claude Code, Codex, Cursor, VS Code, Gemini CLI, opencode, Zed)",
		Description: "install adds a server named bcindex to each agent's MCP configuration, in the file and format\n" +
			"its documentation gives: in the repository (.mcp.json, .codex/config.toml, .cursor/mcp.json,\n" +
			".vscode/mcp.json, .gemini/settings.json, opencode.json, .zed/settings.json) for every agent, or\n" +
			"with --user in your own files for the agents found on this machine; --agent picks some. It\n" +
			"merges into existing files, keeping other entries, comments and layout, writes atomically,\n" +
			"and in the repository also writes a marked section into AGENTS.md and CLAUDE.md saying which\n" +
			"tool answers what (--no-instructions: not). uninstall removes exactly what install added. See\n" +
			"doc/agents.md.",
		Subcommands: []*cli.Command{
			{Name: "install", Usage: "register the MCP server (and write the instructions section)", Action: runAgentsInstall,
				Flags: append(change, &cli.BoolFlag{Name: "no-instructions", Usage: "leave AGENTS.md and CLAUDE.md alone"})},
			{Name: "uninstall", Usage: "remove exactly what install added", Action: runAgentsUninstall, Flags: change},
			{Name: "status", Usage: "show, for each agent, whether its files register bcindex", Action: runAgentsStatus,
				Flags: []cli.Flag{&cli.BoolFlag{Name: "json", Usage: "print JSON Lines"},
					&cli.BoolFlag{Name: "user", Usage: "only the user's configuration files"}}},
		},
	}
}

// agentsEnv is where the files are: the repository (project scope) and
// the home directory (user scope). The user scope needs no repository.
func agentsEnv(c *cli.Context, needRepo bool) (agents.Env, error) {
	e := agents.Env{LookPath: exec.LookPath}
	home, err := os.UserHomeDir()
	if err != nil {
		return e, fmt.Errorf("find the home directory: %w", err)
	}
	e.Home = home
	repo, err := openRepo(c)
	if err != nil {
		if needRepo {
			return e, err
		}
		return e, nil
	}
	defer repo.Close()
	if repo.WorkTree == "" {
		if needRepo {
			return e, usageError{"a bare repository has no files for agents to read: use --user, or run it in a checkout"}
		}
		return e, nil
	}
	e.Root = repo.WorkTree
	return e, nil
}

func agentsOptions(c *cli.Context) agents.Options {
	return agents.Options{User: c.Bool("user"), Agents: c.StringSlice("agent"), Instructions: !c.Bool("no-instructions")}
}

func runAgentsInstall(c *cli.Context) error {
	e, err := agentsEnv(c, !c.Bool("user"))
	if err != nil {
		return err
	}
	o := agentsOptions(c)
	cs, err := agents.Install(e, o)
	if err != nil {
		return usageError{err.Error()}
	}
	if o.User && len(o.Agents) == 0 && len(cs) == 0 {
		return usageError{"no supported agent found on this machine (" + agents.Names() + "); name one with --agent"}
	}
	return applyAgents(c, e, cs, "added")
}

func runAgentsUninstall(c *cli.Context) error {
	e, err := agentsEnv(c, !c.Bool("user"))
	if err != nil {
		return err
	}
	cs, err := agents.Uninstall(e, agentsOptions(c))
	if err != nil {
		return usageError{err.Error()}
	}
	return applyAgents(c, e, cs, "removed")
}

// applyAgents prints each file's outcome (or, with --dry-run, its diff)
// and writes the changes. A file that cannot be read is reported and the
// others are still written; the command then fails.
func applyAgents(c *cli.Context, e agents.Env, cs []agents.Change, verb string) error {
	w, dry := c.App.Writer, c.Bool("dry-run")
	var failed []string
	for _, ch := range cs {
		name := displayPath(e, ch.Path)
		label := ch.Agent
		if label == "" {
			label = "instructions"
		}
		switch {
		case ch.Err != nil:
			fmt.Fprintf(c.App.ErrWriter, "error: %s: %v\n", label, ch.Err)
			failed = append(failed, name)
		case ch.Note != "":
			fmt.Fprintf(w, "%-12s %s: %s\n", label, name, ch.Note)
		case !ch.Changed():
			fmt.Fprintf(w, "%-12s %s: nothing to do\n", label, name)
		case dry:
			fmt.Fprint(w, ch.Diff(name))
		default:
			top := e.Root
			if c.Bool("user") {
				top = e.Home
			}
			if err := ch.Apply(top); err != nil {
				fmt.Fprintf(c.App.ErrWriter, "error: %s: %v\n", label, err)
				failed = append(failed, name)
				continue
			}
			what := verb
			if ch.After == nil {
				what += ", file removed"
			} else if ch.Before == nil {
				what += ", file created"
			}
			fmt.Fprintf(w, "%-12s %s: %s\n", label, name, what)
		}
	}
	if dry {
		fmt.Fprintln(c.App.ErrWriter, "dry run: nothing written")
	}
	if len(failed) > 0 {
		return fmt.Errorf("agents: %d files left as they were: %v", len(failed), failed)
	}
	return nil
}

// displayPath writes a repository file relative to its top and a user
// file with ~.
func displayPath(e agents.Env, p string) string {
	if e.Root != "" {
		if r, err := filepath.Rel(e.Root, p); err == nil && filepath.IsLocal(r) {
			return filepath.ToSlash(r)
		}
	}
	if r, err := filepath.Rel(e.Home, p); err == nil && filepath.IsLocal(r) {
		return "~/" + filepath.ToSlash(r)
	}
	return p
}

func runAgentsStatus(c *cli.Context) error {
	e, err := agentsEnv(c, false)
	if err != nil {
		return err
	}
	for _, s := range agents.Status(e) {
		if !s.User && (e.Root == "" || c.Bool("user")) {
			continue // no repository here, or --user: user files only
		}
		scope := "project"
		if s.User {
			scope = "user"
		}
		if c.Bool("json") {
			rec := map[string]any{"agent": s.Agent, "scope": scope, "path": s.Path, "state": s.What, "present": s.Present}
			if s.Agent == "" {
				rec["agent"] = "instructions"
			}
			if s.Err != nil {
				rec["error"] = s.Err.Error()
			}
			if err := json.NewEncoder(c.App.Writer).Encode(rec); err != nil {
				return fmt.Errorf("write status: %w", err)
			}
			continue
		}
		label, found := s.Agent, ""
		if label == "" {
			label = "instructions"
		} else if s.Present {
			found = " (agent found)"
		}
		what := s.What
		if s.Err != nil {
			what += ": " + s.Err.Error()
		}
		fmt.Fprintf(c.App.Writer, "%-12s %-7s %-40s %s%s\n", label, scope, displayPath(e, s.Path), what, found)
	}
	return nil
}
