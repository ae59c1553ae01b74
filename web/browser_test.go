package web

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// chromium finds Debian's chromium (or another Chrome) or skips the test.
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skip("no chromium: install it with `apt-get install chromium` (.ci/run does) to run the browser tests")
	return ""
}

// browser starts a headless chromium that reaches nothing but loopback.
func browser(t *testing.T) context.Context {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromium(t)),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.NoFirstRun,
		chromedp.WindowSize(1200, 900),
	)
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancel)
	ctx, cancel2 := chromedp.NewContext(actx)
	t.Cleanup(cancel2)
	ctx, cancel3 := context.WithTimeout(ctx, 4*time.Minute)
	t.Cleanup(cancel3)
	return ctx
}

// artifacts is where screenshots go: $BCINDEX_ARTIFACTS, or a directory
// under the system's temporary one; the test logs where.
func artifacts(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("BCINDEX_ARTIFACTS")
	if dir == "" {
		dir = filepath.Join(os.TempDir(), "bcindex-artifacts")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

func shot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	p := filepath.Join(artifacts(t), name)
	if err = os.WriteFile(p, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", p)
}

// TestBrowser uses the page as a person would, in a real headless browser:
// type a query and press Enter, open the first hit with the keyboard, then
// show a timeline and click a mark through to its commit.
func TestBrowser(t *testing.T) {
	ctx := browser(t)
	f := newFixture(t)
	must := func(what string, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	text := func(sel string) string {
		t.Helper()
		s, err := chromedp.Run(ctx, chromedp.Text(sel))
		must("text of "+sel, err)
		return s
	}
	count := func(sel string) int {
		t.Helper()
		n, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll(`+"`"+sel+"`"+`).length`))
		must("count "+sel, err)
		return n
	}

	must("search", chromedp.Do(ctx,
		chromedp.Navigate(f.url+"/"),
		chromedp.WaitVisible(`input[name=q]`),
		chromedp.SendKeys(`input[name=q]`, "dial with a timeout"+kb.Enter),
		chromedp.WaitVisible(`li.hit`),
	))
	if n := count("li.hit"); n == 0 {
		t.Fatal("search showed no hits")
	}
	if count("li.hit mark") == 0 {
		t.Errorf("no query words marked in the snippets")
	}
	shot(t, ctx, "serve-search.png")

	// HEAD no longer has RetryWithBackoff: search the tag where it was, from
	// the revision picker, and open the hit by keyboard (focus, Enter).
	must("open hit", chromedp.Do(ctx,
		// The page is marked so that the wait below is for the new page,
		// not the previous one's hits.
		chromedp.Evaluate[chromedp.Void](`document.querySelector("input[name=ref]").value = ""; document.querySelector("input[name=q]").value = ""; document.body.setAttribute("data-stale", "")`),
		chromedp.SendKeys(`input[name=ref]`, "v1.0"),
		chromedp.SendKeys(`input[name=q]`, "RetryWithBackoff"+kb.Enter),
		chromedp.WaitNotPresent(`body[data-stale]`),
		chromedp.WaitVisible(`li.hit a.loc`),
		chromedp.Focus(`li.hit a.loc`),
		chromedp.KeyEvent(kb.Enter),
		chromedp.WaitVisible(`h1.file-title`),
	))
	if title, in := text(`h1.file-title`), text(`.line.in`); title != "net/retry.go" || !strings.Contains(in, "RetryWithBackoff") {
		t.Errorf("file view: title %q, first selected line %q", title, in)
	}
	shot(t, ctx, "serve-file.png")

	// The timeline: marks for appear, change, move, vanish; the deletion
	// mark leads to the commit that deleted it.
	must("timeline", chromedp.Do(ctx,
		chromedp.Navigate(f.url+"/log?q=RetryWithBackoff"),
		chromedp.WaitVisible(`figure.chart svg`),
	))
	for _, kind := range []string{"added", "changed", "renamed", "deleted"} {
		if count("svg a.mark."+kind) == 0 {
			t.Errorf("timeline has no %s mark", kind)
		}
	}
	shot(t, ctx, "serve-timeline.png")
	if t.Failed() {
		return
	}
	must("click the deletion mark", chromedp.Do(ctx,
		chromedp.Click(`svg a.mark.deleted`),
		chromedp.WaitVisible(`h1.commit-title`),
	))
	if subject := text(`h1.commit-title`); subject != "delete retry" {
		t.Errorf("deletion mark led to commit %q", subject)
	}
	shot(t, ctx, "serve-commit.png")

	// Exact mode: picking it shows its options and hides the ranked
	// modes' filters (style sheet only, no script); a regex with "ignore
	// case" lists every matching line, and a line number opens the file
	// there with the match marked.
	display := func(sel string) string {
		t.Helper()
		s, err := chromedp.Run(ctx, chromedp.Evaluate[string](`getComputedStyle(document.querySelector(`+"`"+sel+"`"+`)).display`))
		must("style of "+sel, err)
		return s
	}
	must("search page", chromedp.Do(ctx,
		chromedp.Navigate(f.url+"/?ref=v1.0"),
		chromedp.WaitVisible(`select[name=mode]`),
	))
	if display(".exact-opts") != "none" || display("label.ranked") == "none" {
		t.Errorf("before exact is picked: options %s, filters %s", display(".exact-opts"), display("label.ranked"))
	}
	must("exact search", chromedp.Do(ctx,
		chromedp.SetValue(`select[name=mode]`, "exact"),
		chromedp.WaitVisible(`input[name=icase]`),
		chromedp.Click(`input[name=icase]`),
		chromedp.SendKeys(`input[name=q]`, `retrywith\w+`+kb.Enter),
		chromedp.WaitVisible(`ol.exact li.hit`),
	))
	if display("label.ranked") != "none" {
		t.Errorf("the ranked modes' filters are shown in exact mode")
	}
	if n := count("ol.exact .line mark"); n != 2 {
		t.Errorf("exact mode marked %d matches, want 2 (lines 5 and 7 of net/retry.go)", n)
	}
	shot(t, ctx, "serve-exact.png")
	must("open a matching line", chromedp.Do(ctx,
		chromedp.Click(`ol.exact .line a.ln`),
		chromedp.WaitVisible(`h1.file-title`),
	))
	if in := text(`.line.in mark`); in != "RetryWithBackoff" {
		t.Errorf("file view from an exact match marks %q", in)
	}
}
