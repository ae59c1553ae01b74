package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"runtime/pprof"
	"syscall"

	"github.com/urfave/cli/v2"

	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/grep/gitgrep"
	"github.com/bcindex/bcindex/search"
	"github.com/bcindex/bcindex/store"
)

// Exit codes, decided here only (like git grep: 1 means no match).
const (
	exitOK          = 0
	exitNoResults   = 1
	exitError       = 2
	exitInterrupted = 130
)

// errNoResults makes a search without hits exit 1 without printing an error.
var errNoResults = errors.New("no results")

// usageError marks a mistake in the command line.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func newApp(stdout, stderr io.Writer) *cli.App {
	return usageOnStderr(singleValued(&cli.App{
		Name:      "git-bcindex",
		HelpName:  "git bcindex",
		Usage:     "search any revision of a git repository by symbol, keyword and meaning",
		Writer:    stdout,
		ErrWriter: stderr,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "dir", Usage: "run as if started in `DIR` (like git -C)"},
			colorFlag(), noPagerFlag(),
		},
		Commands: []*cli.Command{
			indexCommand(),
			searchCommand(),
			grepCommand(),
			logCommand(),
			similarCommand(),
			askCommand(),
			enhanceCommand(),
			adaptCommand(),
			pushCommand(),
			fetchCommand(),
			publishCommand(),
			statusCommand(),
			hooksCommand(),
			hookCommand(),
			gcCommand(),
			checkCommand(),
			mcpCommand(),
			agentsCommand(),
			serveCommand(),
			manCommand(),
			versionCommand(),
			completionCommand(),
		},
		Version:              readBuildInfo().Version,
		HideHelpCommand:      false,
		EnableBashCompletion: true,
		ExitErrHandler:       func(*cli.Context, error) {}, // run decides exit codes
		// Revisions may hold commas (HEAD^{/fix, typo}): repeat the flag.
		DisableSliceFlagSeparator: true,
	}))
}

// run executes the command line and returns the exit code.
func run(args []string, stdout, stderr io.Writer) int {
	// --version alone prints what `version` does without building the
	// command tree (every command's flags), which is most of its run.
	if len(args) == 2 && (args[1] == "--version" || args[1] == "-v") {
		readBuildInfo().print(stdout)
		return exitOK
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// BCINDEX_CPUPROFILE=FILE profiles the command, for benchmarks.
	if p := os.Getenv("BCINDEX_CPUPROFILE"); p != "" {
		if f, err := os.Create(p); err == nil {
			defer f.Close() // after StopCPUProfile has written the profile
			if pprof.StartCPUProfile(f) == nil {
				defer pprof.StopCPUProfile()
			}
		}
	}
	if p := os.Getenv("BCINDEX_MEMPROFILE"); p != "" {
		defer profileHeapPeak(p)()
	}
	limitMemory()
	if call, ok := gitLogArgs(args); ok {
		return runGitLog(ctx, call, stdout, stderr) // git log's arguments and answer
	}
	app := newApp(stdout, stderr)
	app.Metadata = map[string]any{"args": args} // for runClusterBinary
	err := app.RunContext(ctx, interspersed(app, hoistGlobals(app, args)))
	if uc, ok := app.Metadata[unknownCommandKey].(unknownCommand); ok && err == nil {
		err = uc
	}
	return exitCode(err, stderr, interruptedNote(app, args))
}

// defaultMemoryLimit is the soft limit of the Go heap when GOMEMLIMIT is not
// set. A full index holds far less live data than the heap grows to between
// collections at the default GOGC; with the limit the collector runs
// earlier instead of letting the peak double. Indexing GOROOT/src (11.5k
// files), in turns: peak RSS 555–713 MB without a limit, 421 MB at 320 MiB,
// 346 MB at 240 MiB, 344 MB at 200 MiB (where the collector costs 20% more
// CPU). Kubernetes and GOROOT/src (19.5k files, live heap up to 246 MB),
// with go-git's smaller object cache: 396–422 MB at 256 MiB, 421–461 MB at
// 288 MiB, against 453–525 MB at 320 MiB with the default cache, at the
// same time within the runs' noise (31.7–38.4 s). The limit is soft: a
// repository whose live data needs more gets it, at the cost of more
// frequent collections.
const defaultMemoryLimit = 256 << 20

func limitMemory() {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(defaultMemoryLimit)
	}
}

// exitCode prints err and decides the exit code; interrupted says what
// Ctrl-C left of the command's work.
func exitCode(err error, stderr io.Writer, interrupted string) int {
	if err == nil {
		return exitOK
	}
	if errors.Is(err, errNoResults) {
		return exitNoResults
	}
	var es exitStatus
	if errors.As(err, &es) {
		return int(es) // a child's, which said what went wrong
	}
	// What git grep refuses, it refuses in git's words and exit codes.
	var fatal gitgrep.Fatal
	if errors.As(err, &fatal) {
		fmt.Fprintf(stderr, "fatal: %s\n", fatal.Msg)
		return 128
	}
	var bad gitgrep.UsageError
	if errors.As(err, &bad) {
		if bad.OnStdout {
			fmt.Fprintf(stderr, "error: %s\n", bad.Error())
			return 129
		}
		fmt.Fprintf(stderr, "error: %s\n%s\nsee `git bcindex grep --help`\n", bad.Error(), gitgrep.Usage)
		return 129
	}
	if errors.Is(err, context.Canceled) {
		fmt.Fprintln(stderr, "interrupted: "+interrupted)
		return exitInterrupted
	}
	fmt.Fprintf(stderr, "error: %v\n", err)
	if h := hint(err); h != "" {
		fmt.Fprintf(stderr, "hint: %s\n", h)
	}
	return exitError
}

func hint(err error) string {
	switch {
	case errors.Is(err, store.ErrNoIndex):
		return "run `git bcindex index` first"
	case errors.Is(err, errDamaged):
		return "run `git bcindex check --repair`: it keeps what is sound and rebuilds the rest from git"
	case errors.Is(err, store.ErrCorrupt):
		return "run `git bcindex check --repair`, or rebuild it all with `git bcindex index --rebuild`"
	case errors.Is(err, store.ErrSchema):
		return "rebuild it with `git bcindex index --rebuild`"
	case errors.Is(err, store.ErrLocked):
		return "wait for it to finish (see `git bcindex status`), or search with --no-index"
	case errors.Is(err, gitindex.ErrNoCommits):
		return "commit something first (`git add` and `git commit`), then run it again"
	case errors.Is(err, gitindex.ErrUnknownRevision):
		return "list revisions with `git branch -a`, `git tag` or `git log --oneline`"
	case errors.Is(err, gitindex.ErrNoRefMatch):
		return "list refs with `git for-each-ref`; a glob without refs/ matches short names (main, origin/main, v1.2)"
	case errors.Is(err, gitindex.ErrNotRepository):
		return "run git bcindex inside a git repository, or pass --dir DIR"
	case errors.Is(err, errNoClusterBinary):
		return "./install.sh installs it beside git-bcindex; or build it: go build -o $(dirname $(command -v git-bcindex))/git-bcindex-cluster ./cmd/git-bcindex"
	case errors.Is(err, search.ErrEmptyQuery):
		return "usage: git bcindex search [options] QUERY"
	}
	if h := embedHint(err); h != "" {
		return h
	}
	if h := askHint(err); h != "" {
		return h
	}
	var uc unknownCommand
	if errors.As(err, &uc) {
		return uc.hint()
	}
	var ue usageError
	if errors.As(err, &ue) {
		return "see `git bcindex help`"
	}
	return ""
}

// openRepo opens the repository at --dir or the current directory.
func openRepo(c *cli.Context) (*gitindex.Repo, error) {
	dir := c.String("dir")
	if dir == "" {
		dir = "."
	}
	repo, err := gitindex.OpenRepo(dir)
	if err == nil {
		repo.Damaged = func(line string) { fmt.Fprintf(c.App.ErrWriter, "warning: %s\n", line) }
	}
	return repo, err
}
