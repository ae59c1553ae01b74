package main

import (
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/internal/simdlevel"
	"github.com/bcindex/bcindex/store"
	"github.com/bcindex/bcindex/vector"
)

// version and commit may be set at build time with
// -ldflags "-X main.version=... -X main.commit=..." (install.sh does);
// otherwise they come from the module and VCS stamps Go records in the binary.
var (
	version = ""
	commit  = ""
)

// buildInfo is what `git bcindex version` prints.
type buildInfo struct {
	Version   string `json:"version"`
	Commit    string `json:"commit"`
	Modified  bool   `json:"modified,omitempty"`
	GoVersion string `json:"go_version"`
	Schema    int    `json:"schema"`
	Model     string `json:"default_model"`
	// Kernel is the vector kernel searches run; Kernels every one this
	// build can run on this CPU (BCINDEX_KERNEL chooses a lower one).
	Kernel  string   `json:"kernel"`
	Kernels []string `json:"kernels"`
}

func readBuildInfo() buildInfo {
	b := buildInfo{Version: version, Commit: commit, GoVersion: runtime.Version(),
		Schema: store.SchemaVersion, Model: embed.BuiltinID,
		Kernel: vector.Kernel(), Kernels: vector.Kernels()}
	if bi, ok := debug.ReadBuildInfo(); ok {
		if b.Version == "" && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
			b.Version = bi.Main.Version
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				if b.Commit == "" {
					b.Commit = s.Value
				}
			case "vcs.modified":
				b.Modified = s.Value == "true"
			}
		}
	}
	if b.Version == "" {
		b.Version = "devel"
	}
	if b.Commit == "" {
		b.Commit = "unknown"
	}
	return b
}

func (b buildInfo) print(w io.Writer) {
	dirty := ""
	if b.Modified {
		dirty = " (modified)"
	}
	fmt.Fprintf(w, "git-bcindex %s\ncommit:  %s%s\ngo:      %s\nschema:  %d\nmodel:   %s\nkernel:  %s (of %s)\n",
		b.Version, b.Commit, dirty, b.GoVersion, b.Schema, b.Model, b.Kernel, strings.Join(b.Kernels, ", "))
}

func versionCommand() *cli.Command {
	return &cli.Command{
		Name:  "version",
		Usage: "print the version, commit, Go version, index schema and default model",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "json", Usage: "print JSON"},
			&cli.BoolFlag{Name: "check", Usage: "also run every vector kernel this CPU has against the portable one; exit 1 if any differs"},
		},
		Action: func(c *cli.Context) error {
			if _, err := simdlevel.Cap(); err != nil {
				fmt.Fprintf(c.App.ErrWriter, "warning: %v; every kernel this CPU has is allowed\n", err)
			}
			if c.Bool("check") {
				if err := vector.SelfCheck(); err != nil {
					return cli.Exit(fmt.Sprintf("git bcindex: %v; build without GOEXPERIMENT=simd, or set %s=generic", err, simdlevel.Env), 1)
				}
			}
			b := readBuildInfo()
			if c.Bool("json") {
				return json.NewEncoder(c.App.Writer).Encode(b)
			}
			b.print(c.App.Writer)
			return nil
		},
	}
}

// --version prints the same as `git bcindex version`.
func init() {
	cli.VersionPrinter = func(c *cli.Context) { readBuildInfo().print(c.App.Writer) }
}
