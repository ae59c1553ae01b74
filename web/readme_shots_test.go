package web

import (
	"fmt"
	"html"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestREADMEShots remakes the README's two pictures when
// BCINDEX_README_SHOTS=1: the search page, and git-bcindex's coloured output
// in a real terminal (tmux, captured with its colours and drawn as HTML).
func TestREADMEShots(t *testing.T) {
	if os.Getenv("BCINDEX_README_SHOTS") == "" {
		t.Skip("set BCINDEX_README_SHOTS=1 to remake doc/img/serve.png and doc/img/terminal.png")
	}
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("no tmux: apt-get install tmux")
	}
	bin := filepath.Join(t.TempDir(), "git-bcindex")
	if b, err := exec.Command("go", "build", "-o", bin, "../cmd/git-bcindex").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, b)
	}
	f := newFixture(t)
	ctx := browser(t)
	out := filepath.Join("..", "doc", "img")
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	err := chromedp.Do(ctx,
		chromedp.EmulateViewport(1000, 640),
		chromedp.Navigate(f.url+"/?q=retry+with+backoff&ref=v1.0&k=3"),
		chromedp.WaitVisible(`li.hit`),
	)
	if err != nil {
		t.Fatal(err)
	}
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(out, "serve.png"), png, 0o644); err != nil {
		t.Fatal(err)
	}

	dir := f.repo.WorkTree
	session := fmt.Sprintf("bcindex-shot-%d", os.Getpid())
	cmd := fmt.Sprintf("cd %q && %q search --no-pager --ref v1.0 -k 2 --max-lines 8 'retry with backoff'; sleep 30", dir, bin)
	if b, err := exec.Command("tmux", "new-session", "-d", "-s", session, "-x", "100", "-y", "34", "env", "TERM=xterm-256color", "sh", "-c", cmd).CombinedOutput(); err != nil {
		t.Fatalf("tmux: %v\n%s", err, b)
	}
	defer exec.Command("tmux", "kill-session", "-t", session).Run()
	var screen []byte
	for range 50 {
		time.Sleep(200 * time.Millisecond)
		screen, err = exec.Command("tmux", "capture-pane", "-e", "-p", "-t", session).Output()
		if err == nil && strings.Contains(string(screen), "RetryWith") {
			break
		}
	}
	if !strings.Contains(string(screen), "\x1b[") {
		t.Fatalf("terminal output has no colour:\n%s", screen)
	}
	// The terminal picture is a plain page: chromium's own --screenshot
	// draws it, at the size of the terminal.
	page := filepath.Join(t.TempDir(), "terminal.html")
	if err := os.WriteFile(page, []byte(ansiPage(strings.TrimRight(string(screen), "\n"))), 0o644); err != nil {
		t.Fatal(err)
	}
	shotCmd := exec.Command(chromium(t), "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
		"--disable-component-update", "--disable-sync", "--no-first-run", "--hide-scrollbars", "--window-size=940,520",
		"--screenshot="+filepath.Join(out, "terminal.png"), "file://"+page)
	if b, err := shotCmd.CombinedOutput(); err != nil {
		t.Fatalf("chromium --screenshot: %v\n%s", err, b)
	}

}

var sgr = regexp.MustCompile(`\x1b\[([0-9;]*)m`)

// ansiPage draws a terminal capture as HTML, mapping the SGR codes
// git-bcindex and tmux use to xterm's colours.
func ansiPage(screen string) string {
	colors := map[string]string{"31": "#cd3131", "32": "#0dbc79", "33": "#e5e510", "34": "#2472c8", "35": "#d670d6", "36": "#11a8cd", "91": "#f14c4c", "95": "#d670d6"}
	var b strings.Builder
	b.WriteString(`<!doctype html><meta charset="utf-8"><style>body{margin:0;background:#1e1e1e}pre{margin:0;padding:14px 18px;color:#ccc;background:#1e1e1e;font:14px/1.35 "DejaVu Sans Mono",monospace;display:inline-block;min-width:860px}</style><pre>`)
	open := 0
	last := 0
	for _, m := range sgr.FindAllStringSubmatchIndex(screen, -1) {
		b.WriteString(html.EscapeString(screen[last:m[0]]))
		last = m[1]
		codes := screen[m[2]:m[3]]
		for ; open > 0; open-- {
			b.WriteString("</span>")
		}
		if codes == "" || codes == "0" {
			continue
		}
		var style []string
		for _, c := range strings.Split(codes, ";") {
			switch {
			case c == "1":
				style = append(style, "font-weight:bold")
			case c == "2":
				style = append(style, "opacity:.6")
			case colors[c] != "":
				style = append(style, "color:"+colors[c])
			}
		}
		b.WriteString(`<span style="` + strings.Join(style, ";") + `">`)
		open++
	}
	b.WriteString(html.EscapeString(screen[last:]))
	for ; open > 0; open-- {
		b.WriteString("</span>")
	}
	b.WriteString("</pre>")
	return b.String()
}
