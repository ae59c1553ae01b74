package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"strconv"

	"github.com/urfave/cli/v2"

	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/hooks"
	"github.com/bcindex/bcindex/indexer"
)

func hooksCommand() *cli.Command {
	return &cli.Command{
		Name:  "hooks",
		Usage: "install, remove or inspect the git hooks that keep the index fresh",
		Description: "The hooks (post-commit, post-merge, post-checkout, post-rewrite) start a background\n" +
			"update and return at once; its log is <git dir>/bcindex/hook.log. An existing hook is\n" +
			"never replaced: bcindex adds a marked block to it. GIT_BCINDEX_SKIP=1 or\n" +
			"`git config bcindex.hooks false` turns the hooks off.",
		Subcommands: []*cli.Command{
			{Name: "install", Usage: "install or upgrade the hooks (honours core.hooksPath)", Action: runHooksInstall},
			{Name: "uninstall", Usage: "remove exactly what install added", Action: runHooksUninstall},
			{Name: "status", Usage: "show the state of each hook", Flags: []cli.Flag{&cli.BoolFlag{Name: "json", Usage: "print JSON"}}, Action: runHooksStatus},
		},
	}
}

// hookCommand is what the installed hooks call; not for people.
func hookCommand() *cli.Command {
	return &cli.Command{
		Name:   "hook",
		Hidden: true,
		Subcommands: []*cli.Command{
			{Name: "run", ArgsUsage: "NAME [ARGS...]", SkipFlagParsing: true, Action: runHookRun},
			{Name: "worker", Action: runHookWorker},
		},
	}
}

// hooksDir is where git looks for this repository's hooks.
func hooksDir(repo *gitindex.Repo) (string, error) {
	top := repo.WorkTree
	if top == "" {
		top = repo.GitDir
	}
	return hooks.Dir(top, repo.CommonDir)
}

// openHooksDir opens the repository and finds its hooks directory.
func openHooksDir(c *cli.Context) (*gitindex.Repo, string, error) {
	repo, err := openRepo(c)
	if err != nil {
		return nil, "", err
	}
	dir, err := hooksDir(repo)
	return repo, dir, err
}

func runHooksInstall(c *cli.Context) error {
	repo, dir, err := openHooksDir(c)
	if err != nil {
		return err
	}
	// The index directory is the opt-in: hooks in a shared core.hooksPath
	// do nothing in repositories without one.
	if err := os.MkdirAll(repo.IndexDir, 0o755); err != nil {
		return fmt.Errorf("create index dir: %w", err)
	}
	results, err := hooks.Install(dir)
	for _, r := range results {
		fmt.Fprintf(c.App.Writer, "%-14s %s (%s)\n", r.Name, r.Action, r.Path)
	}
	if err != nil {
		return fmt.Errorf("install hooks: %w", err)
	}
	fmt.Fprintf(c.App.Writer, "the index now updates in the background after each commit, merge, checkout and rebase; log: %s/%s\n", repo.IndexDir, hooks.LogFile)
	return nil
}

func runHooksUninstall(c *cli.Context) error {
	_, dir, err := openHooksDir(c)
	if err != nil {
		return err
	}
	results, err := hooks.Uninstall(dir)
	for _, r := range results {
		fmt.Fprintf(c.App.Writer, "%-14s %s\n", r.Name, r.Action)
	}
	if err != nil {
		return fmt.Errorf("uninstall hooks: %w", err)
	}
	return nil
}

func runHooksStatus(c *cli.Context) error {
	repo, dir, err := openHooksDir(c)
	if err != nil {
		return err
	}
	sts, err := hooks.Status(dir)
	if err != nil {
		return err
	}
	if c.Bool("json") {
		b, _ := json.Marshal(sts)
		fmt.Fprintln(c.App.Writer, string(b))
		return nil
	}
	for _, st := range sts {
		state := "not installed"
		switch {
		case st.Installed && !st.Executable:
			state = "installed, but the file is not executable (git ignores it)"
		case st.Installed && !st.Current:
			state = "installed, older version (run `git bcindex hooks install`)"
		case st.Installed:
			state = "installed"
		}
		if st.Foreign {
			state += "; the hook has other content too"
		}
		fmt.Fprintf(c.App.Writer, "%-14s %s (%s)\n", st.Name, state, st.Path)
	}
	if hooksDisabled(repo) {
		fmt.Fprintln(c.App.Writer, "disabled by `git config bcindex.hooks false`")
	}
	return nil
}

// runHookRun is the hook itself. It never fails the git command: the
// shell line discards its output and status, and every early return is a
// quiet "nothing to do".
func runHookRun(c *cli.Context) error {
	if hooks.Skip() || c.NArg() == 0 {
		return nil
	}
	repo, err := openRepo(c)
	if err != nil {
		return nil
	}
	if _, err := os.Stat(repo.IndexDir); errors.Is(err, fs.ErrNotExist) || hooksDisabled(repo) {
		return nil
	}
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("hook run: %w", err)
	}
	top := repo.WorkTree
	if top == "" {
		top = repo.GitDir
	}
	worker := exec.Command(exe, "--dir", top, "hook", "worker")
	worker.Dir = top
	worker.Env = hooks.CleanEnv(os.Environ())
	t := hooks.Trigger{Hook: c.Args().First(), Args: c.Args().Tail()}
	_, err = hooks.Launch(repo.IndexDir, t, worker)
	return err
}

// runHookWorker is the detached background process started by hook run.
func runHookWorker(c *cli.Context) error {
	repo, err := openRepo(c)
	if err != nil {
		return err
	}
	top := repo.WorkTree
	if top == "" {
		top = repo.GitDir
	}
	job := hooks.IndexJob(top, func(r *gitindex.Repo) (indexer.Options, error) {
		s, err := readSettings(r)
		if err != nil {
			return indexer.Options{}, err
		}
		return s.indexOptions(), nil
	}, enhanceAfterIndex)
	return hooks.Work(c.Context, repo.IndexDir, job, c.App.ErrWriter)
}

// hooksDisabled reads bcindex.hooks from git config (repository, then global).
func hooksDisabled(repo *gitindex.Repo) bool {
	cfg, err := repo.Config()
	if err != nil {
		return false
	}
	v := cfg.Raw.Section("bcindex").Option("hooks")
	b, err := strconv.ParseBool(v)
	return v != "" && err == nil && !b
}

// hooksInstalled reports whether every bcindex hook is installed and enabled.
func hooksInstalled(repo *gitindex.Repo) bool {
	dir, err := hooksDir(repo)
	return err == nil && hooks.Installed(dir) && !hooksDisabled(repo)
}
