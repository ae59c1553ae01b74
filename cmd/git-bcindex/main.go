// Command git-bcindex is bcindex's command line: `git bcindex <command>`.
package main

import "os"

func main() { os.Exit(run(os.Args, os.Stdout, os.Stderr)) }
