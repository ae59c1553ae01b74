package web

import (
	"html"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/indexer"
)

// exactLineRE finds the (line number, marked HTML) pairs of an exact results
// page, in order.
var exactLineRE = regexp.MustCompile(`<span class="line"><a class="ln" href="([^"]+)">(\d+)</a>(.*?)</span>`)

func getExact(t *testing.T, base string, v url.Values) (int, string, [][]string) {
	t.Helper()
	v.Set("mode", "exact")
	code, body := get(t, base+"/?"+v.Encode())
	return code, body, exactLineRE.FindAllStringSubmatch(body, -1)
}

func TestExactMode(t *testing.T) {
	f := newFixture(t)

	// A regex at an older revision: the line, its match marked, linking
	// to the file view at that commit and line.
	code, body, lines := getExact(t, f.url, url.Values{"q": {`delay \*= \d`}, "ref": {"v1.0"}})
	if code != 200 || len(lines) != 1 || lines[0][2] != "15" || !strings.Contains(lines[0][3], "<mark>delay *= 3</mark>") {
		t.Fatalf("regex at v1.0: %d %q\n%s", code, lines, body)
	}
	for _, want := range []string{`<option value="exact" selected>`, `net/retry.go</a>`, "matching lines 1–1 in 1 file at <code>v1.0</code>", f.commits[1][:10]} {
		if !strings.Contains(body, want) {
			t.Errorf("exact page lacks %q\n%s", want, body)
		}
	}
	href := html.UnescapeString(lines[0][1])
	if !strings.Contains(href, "ref="+f.commits[1]) || !strings.HasSuffix(href, "#L15") {
		t.Errorf("line link %q does not name the commit and line", href)
	}
	code, body = get(t, f.url+href)
	if code != 200 || !strings.Contains(body, `class="line in" id="L15"`) || !strings.Contains(body, "<mark>delay *= 3</mark>") {
		t.Errorf("file view from an exact match: %d\n%s", code, body)
	}

	// Fixed string, case and word: each option changes the answer.
	tests := []struct {
		args  url.Values
		lines string // line numbers shown
	}{
		{url.Values{"q": {"RETRYWITHBACKOFF"}, "fixed": {"1"}}, ""},
		{url.Values{"q": {"RETRYWITHBACKOFF"}, "fixed": {"1"}, "icase": {"1"}}, "5 7"},
		{url.Values{"q": {"err"}}, "7 9 11 17"},
		{url.Values{"q": {"err"}, "word": {"1"}}, "9 11 17"},
		{url.Values{"q": {"Retry("}, "fixed": {"1"}}, ""},
		{url.Values{"q": {"fn("}, "fixed": {"1"}}, "11"},
		{url.Values{"q": {"return"}, "path": {"cfg/**"}}, "8 10"},
		{url.Values{"q": {"return"}, "path": {"!cfg/**"}}, "12 17"},
	}
	for _, tt := range tests {
		tt.args.Set("ref", "v1.0")
		code, body, lines := getExact(t, f.url, tt.args)
		var ns []string
		for _, l := range lines {
			ns = append(ns, l[2])
			if !strings.Contains(l[3], "<mark>") {
				t.Errorf("%v: line %s has no mark: %s", tt.args, l[2], l[3])
			}
		}
		if code != 200 || strings.Join(ns, " ") != tt.lines {
			t.Errorf("%v: %d, lines %q, want %q", tt.args, code, ns, tt.lines)
		}
		if tt.lines == "" && !strings.Contains(body, "no matching lines") {
			t.Errorf("%v: no 'no matching lines'\n%s", tt.args, body)
		}
		if tt.args.Get("icase") != "" && !strings.Contains(body, `name="icase" value="1" checked`) {
			t.Errorf("%v: the ignore-case box is not kept checked", tt.args)
		}
	}

	// Bad input: a 400 that says what is wrong and where.
	for q, want := range map[string]string{"retry(": "missing closing ) at offset 5", `a**`: "nested repetition"} {
		code, body, _ = getExact(t, f.url, url.Values{"q": {q}})
		if code != 400 || !strings.Contains(body, `class="error" role="alert"`) || !strings.Contains(body, want) {
			t.Errorf("invalid regex %q: %d\n%s", q, code, body)
		}
	}
	code, body, _ = getExact(t, f.url, url.Values{"q": {"x"}, "path": {"[a-"}})
	if code != 400 || !strings.Contains(body, "glob") {
		t.Errorf("bad glob: %d\n%s", code, body)
	}
	code, body, _ = getExact(t, f.url, url.Values{"q": {"x"}, "ref": {"no-such-branch"}})
	if code != 400 || !strings.Contains(body, "no-such-branch") {
		t.Errorf("unknown ref: %d\n%s", code, body)
	}
}

// TestExactPages follows the next-page links through every matching line.
func TestExactPages(t *testing.T) {
	f := newFixture(t)
	s, err := New(f.repo, Options{Embedder: embed.Default(), ExactPage: 4, Ensure: indexer.Ensurer(indexer.Options{Embedder: embed.Default()})})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(LoopbackOnly(s))
	t.Cleanup(srv.Close)

	var got []string
	next := "/?" + url.Values{"q": {"."}, "ref": {"v1.0"}, "mode": {"exact"}}.Encode()
	nextRE := regexp.MustCompile(`<a href="([^"]+)">more follow</a>`)
	for pages := 0; next != ""; pages++ {
		if pages > 20 {
			t.Fatal("the pages do not end")
		}
		code, body := get(t, srv.URL+next)
		lines := exactLineRE.FindAllStringSubmatch(body, -1)
		if code != 200 || len(lines) == 0 || len(lines) > 4 {
			t.Fatalf("page %s: %d, %d lines\n%s", next, code, len(lines), body)
		}
		for _, l := range lines {
			got = append(got, l[2])
		}
		next = ""
		if m := nextRE.FindStringSubmatch(body); m != nil {
			next = html.UnescapeString(m[1])
		}
	}
	// Non-empty lines of cfg/config.py (10 lines, 2 empty) then
	// net/retry.go (18 lines, 2 empty).
	want := "1 4 5 7 8 9 10 1 3 5 6 7 8 9 10 11 12 13 14 15 16 17 18"
	if strings.Join(got, " ") != want {
		t.Errorf("lines over every page:\n got %s\nwant %s", strings.Join(got, " "), want)
	}
}
