package web

import (
	"context"
	"fmt"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/indexer"
	"github.com/bcindex/bcindex/internal/testkit/gittest"
)

// sumGo has blank lines before, inside and after the function a search
// for "Sum adds" finds, so that the hit's snippet (with its context) holds
// some at both ends and in the middle.
const sumGo = `package blank

// Sum adds up xs.
func Sum(xs []int) int {
	total := 0

	for _, x := range xs {
		total += x
	}

	return total
}

// Other does nothing.
func Other() {}
`

// row is one numbered line as the browser laid it out.
type row struct {
	N      string  // the number shown
	Top    float64 // of the row
	Height float64 // of the row
	NumTop float64 // of its number
	Text   string  // the code, without the number
}

// rows measures the numbered lines under sel.
func rows(t *testing.T, ctx context.Context, sel string) []row {
	t.Helper()
	js := fmt.Sprintf(`Array.from(document.querySelectorAll(%q)).map(l => {
		const r = l.getBoundingClientRect(), n = l.querySelector(".ln");
		return {N: n.textContent, Top: r.top, Height: r.height, NumTop: n.getBoundingClientRect().top,
			Text: l.textContent.slice(n.textContent.length)};
	})`, sel)
	got, err := chromedp.Run(ctx, chromedp.Evaluate[[]row](js))
	if err != nil {
		t.Fatalf("measure %s: %v", sel, err)
	}
	return got
}

// checkRows: every row, blank or not, is as tall as a line of code, and
// each number sits one row below the one before, never over it. It
// returns the height of a line of code.
func checkRows(t *testing.T, what string, rs []row, wantBlank int) float64 {
	t.Helper()
	var h float64
	blank := 0
	for _, r := range rs {
		if strings.TrimSpace(r.Text) != "" && h == 0 {
			h = r.Height
		}
		if strings.TrimSpace(r.Text) == "" {
			blank++
		}
	}
	if h < 10 {
		t.Fatalf("%s: no line of code of a sensible height in %+v", what, rs)
	}
	if blank != wantBlank {
		t.Errorf("%s: %d blank rows, want %d", what, blank, wantBlank)
	}
	for i, r := range rs {
		if r.Height < h-0.5 || r.Height > h+0.5 {
			t.Errorf("%s: line %s (%q) is %.1f px high, a line of code %.1f", what, r.N, r.Text, r.Height, h)
		}
		if i > 0 && r.NumTop-rs[i-1].NumTop < h-0.5 {
			t.Errorf("%s: number %s is %.1f px below number %s: printed over it", what, r.N, r.NumTop-rs[i-1].NumTop, rs[i-1].N)
		}
	}
	return h
}

// TestBlankLinesKeepTheirRow measures, in a real browser, the rows of a
// search hit, a file and an exact search holding blank lines: a blank
// line is a row as tall as any other, so its number is not printed over
// the next. The counts say "1 line", not "1 lines".
func TestBlankLinesKeepTheirRow(t *testing.T) {
	ctx := browser(t)
	r := gittest.New(t)
	r.Commit("init", map[string]string{"blank/sum.go": sumGo})
	repo, err := gitindex.OpenRepo(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { repo.Close() })
	opts := indexer.Options{Embedder: embed.Default()}
	s, err := New(repo, Options{Embedder: embed.Default(), Ensure: indexer.Ensurer(opts)})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(LoopbackOnly(s))
	t.Cleanup(srv.Close)
	open := func(path string, q url.Values, wait string) {
		t.Helper()
		if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+path+"?"+q.Encode()), chromedp.WaitVisible(wait)); err != nil {
			t.Fatalf("open %s %v: %v", path, q, err)
		}
	}
	text := func(sel string) string {
		t.Helper()
		s, err := chromedp.Run(ctx, chromedp.Text(sel))
		if err != nil {
			t.Fatalf("text of %s: %v", sel, err)
		}
		return s
	}

	// The hit on Sum (lines 3-12) with its context: blank lines 2, 6, 10
	// and 13.
	open("/", url.Values{"q": {"Sum adds up xs"}}, "li.hit .line")
	hit := rows(t, ctx, "li.hit:first-child .line")
	if len(hit) == 0 || !strings.Contains(text("li.hit:first-child .loc"), "blank/sum.go:3-12") {
		t.Fatalf("first hit: %s, %+v", text("li.hit:first-child .loc"), hit)
	}
	h := checkRows(t, "search hit", hit, 4)
	shot(t, ctx, "serve-blank-search.png")

	// The whole file: four blank lines among fifteen.
	open("/file", url.Values{"path": {"blank/sum.go"}}, ".file .line")
	file := rows(t, ctx, ".file .line")
	if len(file) != 15 {
		t.Errorf("file view: %d rows, want 15", len(file))
	}
	checkRows(t, "file", file, 4)
	if !strings.Contains(text("p.summary"), "15 lines") {
		t.Errorf("file summary: %q", text("p.summary"))
	}

	// Exact mode, every empty line: rows made of blank lines only.
	open("/", url.Values{"q": {"^$"}, "mode": {"exact"}}, "ol.exact .line")
	exact := rows(t, ctx, "ol.exact .line")
	checkRowsOfBlanks(t, exact, h)
	if got := text("ol.exact .meta"); got != "4 lines" {
		t.Errorf("exact, 4 matching lines: %q", got)
	}
	shot(t, ctx, "serve-blank-exact.png")

	// One matching line is "1 line".
	open("/", url.Values{"q": {"func Other"}, "mode": {"exact"}}, "ol.exact .line")
	if got := text("ol.exact .meta"); got != "1 line" {
		t.Errorf("exact, one matching line: %q", got)
	}
	open("/", url.Values{"q": {"Other does nothing"}, "k": {"1"}}, "p.summary")
	if got := text("p.summary"); !strings.HasPrefix(got, "1 hit at") {
		t.Errorf("one hit: %q", got)
	}
}

// checkRowsOfBlanks: rows of empty lines only, each as tall as a line of
// code (h, measured on a search hit) and each number below the last.
func checkRowsOfBlanks(t *testing.T, rs []row, h float64) {
	t.Helper()
	if len(rs) != 4 {
		t.Fatalf("exact: %d rows, want the 4 empty lines: %+v", len(rs), rs)
	}
	for i, r := range rs {
		if r.Height < h-0.5 || r.Height > h+0.5 {
			t.Errorf("exact: empty line %s is %.1f px high, a line of code %.1f", r.N, r.Height, h)
		}
		if i > 0 && r.NumTop <= rs[i-1].NumTop {
			t.Errorf("exact: number %s is not below number %s", r.N, rs[i-1].N)
		}
	}
}
