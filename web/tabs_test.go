package web

import (
	"math"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestTabWidth: in the file view a tab at the start of a line is as wide
// as the tab size (4 columns), measured from the code's first column in a
// real browser; the line number before it once took most of the first
// tab stop, leaving a tab about one character wide.
func TestTabWidth(t *testing.T) {
	ctx := browser(t)
	f := newFixture(t)
	const measure = `(() => {
	  for (const line of document.querySelectorAll(".file .line")) {
	    const w = document.createTreeWalker(line, NodeFilter.SHOW_TEXT);
	    for (let n; (n = w.nextNode()); ) {
	      if (n.parentElement.classList.contains("ln")) continue;
	      const i = n.data.indexOf("\t");
	      if (i < 0 || i + 1 >= n.data.length || n.data[i + 1] === "\t") continue;
	      const r = document.createRange();
	      r.setStart(n, i); r.setEnd(n, i + 1);
	      const tab = r.getBoundingClientRect().width;
	      r.setStart(n, i + 1); r.setEnd(n, i + 2);
	      return tab / r.getBoundingClientRect().width;
	    }
	  }
	  return -1;
	})()`
	if err := chromedp.Do(ctx,
		chromedp.Navigate(f.url+"/file?ref=v1.0&path=net/retry.go"),
		chromedp.WaitVisible(`h1.file-title`),
	); err != nil {
		t.Fatal(err)
	}
	ratio, err := chromedp.Run(ctx, chromedp.Evaluate[float64](measure))
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(ratio-4) > 0.1 {
		t.Errorf("a leading tab is %.2f characters wide, want 4", ratio)
	}
}
