package main

import (
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"

	"github.com/urfave/cli/v2"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/store"
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
}

func readBuildInfo() buildInfo {
	b := buildInfo{Version: version, Commit: commit, GoVersion: runtime.Version(),
		Schema: store.SchemaVersion, Model: embed.BuiltinID}
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
	fmt.Fprintf(w, "git-bcindex %s\ncommit:  %s%s\ngo:      %s\nschema:  %d\nmodel:   %s\n",
		b.Version, b.Commit, dirty, b.GoVersion, b.Schema, b.Model)
}

func versionCommand() *cli.Command {
	return &cli.Command{
		Name:  "version",
		Usage: "print the version, commit, Go version, index schema and default model",
		Flags: []cli.Flag{&cli.BoolFlag{Name: "json", Usage: "print JSON"}},
		Action: func(c *cli.Context) error {
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
