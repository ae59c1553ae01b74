package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/mattn/go-isatty"

	"github.com/bcindex/bcindex/indexer"
)

// historyIndexProgress reports a history index on stderr: commits done of the
// total, blobs, chunks and the rate of new blobs. On a terminal one line
// is redrawn in place; piped, a line is printed after a batch of commits
// (at most every historyLineEvery) and while a long batch runs (every
// historyBlobLineEvery), so that a log shows the run is alive.
type historyIndexProgress struct {
	w     io.Writer
	tty   bool
	start time.Time
	last  time.Time // when the last line was printed; zero: none yet

	done, total int   // commits
	blobs       int   // new blobs written, this run
	bytes       int64 // their bytes
	chunks      int   // as of the last batch
	resumed     int   // commits an earlier run had indexed
}

const (
	historyLineEvery     = 2 * time.Second
	historyBlobLineEvery = 10 * time.Second
	historyRedrawEvery   = 200 * time.Millisecond
)

// newHistoryProgress returns the progress of a history index on stderr.
func newHistoryProgress(stderr io.Writer) *historyIndexProgress {
	tty := false
	if f, ok := stderr.(*os.File); ok {
		tty = isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd())
	}
	return &historyIndexProgress{w: stderr, tty: tty, start: time.Now()}
}

// Start begins a batch of commits, an indexing run of total new blobs.
func (p *historyIndexProgress) Start(int) {}

// Add counts blobs written.
func (p *historyIndexProgress) Add(blobs int, bytes int64) {
	p.blobs += blobs
	p.bytes += bytes
	every := historyBlobLineEvery
	if p.tty {
		every = historyRedrawEvery
	}
	if time.Since(p.last) >= every {
		p.print()
	}
}

// Finish ends a batch.
func (p *historyIndexProgress) Finish() {}

// Commits records a finished batch.
func (p *historyIndexProgress) Commits(done, total int, sum *indexer.Summary) {
	p.done, p.total, p.chunks, p.resumed = done, total, sum.Chunks, sum.Resumed
	every := historyLineEvery
	if p.tty {
		every = historyRedrawEvery
	}
	if p.last.IsZero() || time.Since(p.last) >= every || done == total {
		p.print()
	}
}

// Tables says the tables of the history's changes are being recorded.
func (p *historyIndexProgress) Tables() {
	line := "indexing history: recording every commit's changes for log -S and -G"
	if p.tty {
		fmt.Fprintf(p.w, "\r\x1b[K%s", line)
		return
	}
	fmt.Fprintln(p.w, line)
}

// end clears a terminal's line once the run returned, so that the summary
// or an error starts on a clean line.
func (p *historyIndexProgress) end() {
	if p.tty && !p.last.IsZero() {
		fmt.Fprint(p.w, "\r\x1b[K")
	}
}

func (p *historyIndexProgress) print() {
	p.last = time.Now()
	line := fmt.Sprintf("indexing history: %d/%d commits, %d new blobs (%.1f MB), %d chunks", p.done, p.total, p.blobs, float64(p.bytes)/1e6, p.chunks)
	if secs := time.Since(p.start).Seconds(); secs > 0 {
		line += fmt.Sprintf(", %.0f blobs/s", float64(p.blobs)/secs)
	}
	if p.resumed > 0 {
		line += fmt.Sprintf(", resumed after %d commits indexed before", p.resumed)
	}
	if p.tty {
		fmt.Fprintf(p.w, "\r\x1b[K%s", line)
		return
	}
	fmt.Fprintln(p.w, line)
}
