package main

import (
	"io"
	"os"

	"github.com/mattn/go-isatty"
	"github.com/schollz/progressbar/v3"

	"github.com/bcindex/bcindex/indexer"
)

// barProgress draws a progress bar on a terminal's stderr.
type barProgress struct {
	w   io.Writer
	bar *progressbar.ProgressBar
}

// newProgress returns a progress bar when stderr is a terminal, else nil
// (piped output stays quiet until the final summary).
func newProgress(stderr io.Writer) indexer.Progress {
	f, ok := stderr.(*os.File)
	if !ok || !(isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd())) {
		return nil
	}
	return &barProgress{w: stderr}
}

func (p *barProgress) Start(total int) {
	p.bar = progressbar.NewOptions(total,
		progressbar.OptionSetWriter(p.w),
		progressbar.OptionSetDescription("indexing blobs"),
		progressbar.OptionShowCount(),
		progressbar.OptionShowIts(),
		progressbar.OptionSetItsString("blobs"),
		progressbar.OptionThrottle(100_000_000),
		progressbar.OptionClearOnFinish(),
		progressbar.OptionSetPredictTime(true),
	)
}

func (p *barProgress) Add(blobs int, _ int64) {
	if p.bar != nil {
		p.bar.Add(blobs)
	}
}

func (p *barProgress) Finish() {
	if p.bar != nil {
		p.bar.Finish()
	}
}
