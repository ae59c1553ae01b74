package main

import (
	"fmt"
	"net"

	"github.com/urfave/cli/v2"

	"github.com/bcindex/bcindex/web"
)

func serveCommand() *cli.Command {
	return &cli.Command{
		Name:  "serve",
		Usage: "browse search results, files and timelines in a local web page (read only)",
		Description: "Serves a web page over the same index: search with a revision picker and filters,\n" +
			"hits with highlighted snippets, an exact mode (every line matching a string or regex, like grep),\n" +
			"files at any revision, and the log timeline as a chart.\n" +
			"It listens on loopback unless --addr says otherwise, and never writes to the repository.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "addr", Value: "127.0.0.1:7878", Usage: "listen on `HOST:PORT` (a non-loopback address exposes the repository to that network)"},
		},
		Action: runServe,
	}
}

func runServe(c *cli.Context) error {
	repo, s, err := openWithSettings(c)
	if err != nil {
		return err
	}
	opts := s.webOptions()
	opts.Log = c.App.ErrWriter
	h, err := web.New(repo, opts)
	if err != nil {
		return err
	}
	defer h.Close() // the index views kept open across requests
	return web.Serve(c.Context, c.String("addr"), h, func(a net.Addr) {
		if tcp, ok := a.(*net.TCPAddr); ok && !tcp.IP.IsLoopback() {
			fmt.Fprintf(c.App.ErrWriter, "warning: listening on %s exposes this repository's index and files, without authentication, to every machine that can reach this one; --addr 127.0.0.1:PORT keeps them on this machine\n", a)
		}
		fmt.Fprintf(c.App.ErrWriter, "serving http://%s/ (Ctrl-C to stop)\n", a)
	})
}
