package web

import (
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

func get(t *testing.T, u string) (int, string) {
	t.Helper()
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(b)
}

func TestPages(t *testing.T) {
	f := newFixture(t)

	// Search at an older revision (a tag from the picker): the hit links to
	// the file at that commit, and the query's sub-token is marked.
	code, body := get(t, f.url+"/?"+url.Values{"q": {"backoff"}, "ref": {"v1.0"}, "mode": {"text"}}.Encode())
	if code != 200 {
		t.Fatalf("search: %d\n%s", code, body)
	}
	for _, want := range []string{`<option value="v1.0">`, `net/retry.go:5-18`, `RetryWith<mark>Backoff</mark>`, `ref=` + f.commits[1]} {
		if !strings.Contains(body, want) {
			t.Errorf("search page lacks %q\n%s", want, body)
		}
	}
	href := regexp.MustCompile(`class="loc" href="([^"]+)"`).FindStringSubmatch(body)
	if href == nil {
		t.Fatalf("no hit link in\n%s", body)
	}
	code, body = get(t, f.url+strings.ReplaceAll(href[1], "&amp;", "&"))
	if code != 200 || !strings.Contains(body, `id="L5"`) || !strings.Contains(body, `class="line in" id="L5"`) || !strings.Contains(body, "delay *= 3") {
		t.Errorf("file view: %d\n%s", code, body)
	}

	// The file view follows the path rules of internal/safepath, as the MCP tools do.
	code, body = get(t, f.url+"/file?ref=HEAD&path=../../etc/passwd")
	if code != 404 || !strings.Contains(body, "may not appear in a path") {
		t.Errorf("path escape: %d\n%s", code, body)
	}
	code, body = get(t, f.url+"/file?ref=HEAD&path=net/retry.go")
	if code != 404 || !strings.Contains(body, "no file") {
		t.Errorf("deleted file at HEAD: %d\n%s", code, body)
	}

	// The timeline: one row per chunk with marks linking to their commits.
	code, body = get(t, f.url+"/log?q=RetryWithBackoff")
	if code != 200 {
		t.Fatalf("log: %d\n%s", code, body)
	}
	for _, want := range []string{"<svg", `class="mark added" href="/commit?`, `class="mark changed"`, `class="mark renamed"`, `class="mark deleted"`,
		"rev=" + f.commits[0], "rev=" + f.commits[3]} {
		if !strings.Contains(body, want) {
			t.Errorf("timeline lacks %q", want)
		}
	}
	del := regexp.MustCompile(`class="mark deleted" href="([^"]+)"`).FindStringSubmatch(body)
	if del == nil {
		t.Fatal("no deleted mark")
	}
	code, body = get(t, f.url+strings.ReplaceAll(del[1], "&amp;", "&"))
	if code != 200 || !strings.Contains(body, "delete retry") || !strings.Contains(body, "shown as it was in its parent") || !strings.Contains(body, "RetryWithBackoff") {
		t.Errorf("commit page of the deletion: %d\n%s", code, body)
	}

	// Bad input: a clear error, not a crash.
	code, body = get(t, f.url+"/?q=x&ref=no-such-branch")
	if code != 400 || !strings.Contains(body, "no-such-branch") {
		t.Errorf("unknown ref: %d\n%s", code, body)
	}
}

func TestReadOnlyAndLoopback(t *testing.T) {
	f := newFixture(t)
	resp, err := http.Post(f.url+"/?q=x", "text/plain", strings.NewReader("x"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("POST: %d, want 405", resp.StatusCode)
	}
	req, _ := http.NewRequest("GET", f.url+"/", nil)
	req.Host = "attacker.example:80"
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Errorf("foreign Host: %d, want 403", resp.StatusCode)
	}
	code, body := get(t, f.url+"/static/style.css")
	if code != 200 || !strings.Contains(body, "mark") {
		t.Errorf("style sheet: %d", code)
	}
}
