package main

import (
	"github.com/urfave/cli/v2"
)

// interruptedNotes are the lines Ctrl-C prints after "interrupted: ",
// saying what of a command's work is kept. Commands not named here index
// as they go (defaultInterrupted).
var interruptedNotes = map[string]string{
	"ask":     "no answer; nothing was stored (the tokens spent so far are spent)",
	"enhance": "the summaries received so far are stored; run the command again to go on from there",
	"adapt":   "the model was not changed; the built-in or the last adapted one stays in use",
}

const defaultInterrupted = "the finished part of the index is kept; run the command again to resume"

// interruptedNote is the line for the command args run.
func interruptedNote(app *cli.App, args []string) string {
	if cmd := commandOf(app, args); cmd != nil && interruptedNotes[cmd.Name] != "" {
		return interruptedNotes[cmd.Name]
	}
	return defaultInterrupted
}

// commandOf returns the command args name after the global flags, or nil.
func commandOf(app *cli.App, args []string) *cli.Command {
	_, cmd := commandAt(app, args)
	return cmd
}
