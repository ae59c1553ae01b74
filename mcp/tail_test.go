package mcp

import (
	"fmt"
	"strings"
	"testing"

	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/internal/testkit/gittest"
)

// TestSearchTail: after its k hits an answer lists further files, a line
// each, none of them a hit or listed twice; where the hybrid ranks fewer
// files than that, the text and vector arms alone fill the tail under a
// line of their own, each file naming its arm. more=0 lists none, a
// value above the ceiling is an error, and a tight byte budget cuts the
// tail with a note.
func TestSearchTail(t *testing.T) {
	r := gittest.New(t)
	files := gittest.ManyFiles(40)
	files["net/retry.go"] = gittest.RetryGo
	for i := 0; i < 10; i++ { // weak matches of one word: the text arm's floor is low
		files[fmt.Sprintf("notes/n%d.go", i)] = fmt.Sprintf("package notes\n\n// N%d mentions backoff once.\nfunc N%d() string {\n%s\treturn \"\"\n}\n", i, i, strings.Repeat("\t_ = \"filler words of no interest\"\n", 30))
	}
	r.Commit("many", files)
	repo, err := gitindex.OpenRepo(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	c := connect(t, repo)
	args := map[string]any{"query": "retry with backoff", "k": 1, "more": 20}
	out, txt := ok[searchOut](t, c, "search", args)
	if len(out.Hits) != 1 || len(out.More) < 2 {
		t.Fatalf("%d hits, %d further files:\n%s", len(out.Hits), len(out.More), txt)
	}
	seen := map[string]bool{out.Hits[0].Path: true}
	arms := 0
	for i, m := range out.More {
		if seen[m.Path] {
			t.Errorf("%s listed twice:\n%s", m.Path, txt)
		}
		seen[m.Path] = true
		if m.StartLine < 1 || m.EndLine < m.StartLine || !strings.Contains(txt, "\n"+strings.TrimSuffix(tailLine(m), "\n")+"\n") {
			t.Errorf("further file %+v not a line of the text:\n%s", m, txt)
		}
		switch m.Arm {
		case "":
			if arms > 0 {
				t.Errorf("%s from the hybrid after files of one arm", m.Path)
			}
		case "text", "vector":
			arms++
		default:
			t.Errorf("%s: arm %q", m.Path, m.Arm)
		}
		if i > 0 && m.Arm != "" && out.More[i-1].Arm == "" && !strings.Contains(txt, tailLead+tailLine(out.More[0])) {
			t.Errorf("the tail is not under its lead:\n%s", txt)
		}
	}
	// The hybrid ranks few of these files for the query: the arms add others.
	if arms == 0 || !strings.Contains(txt, armsLead) {
		t.Errorf("no file from one arm alone:\n%s", txt)
	}
	if i := strings.Index(txt, armsLead); i >= 0 && strings.Index(txt, "[1 hits") < i {
		t.Errorf("the tail follows the footer:\n%s", txt)
	}

	none, noneTxt := ok[searchOut](t, c, "search", map[string]any{"query": "retry with backoff", "k": 1, "more": 0})
	if len(none.More) != 0 || strings.Contains(noneTxt, tailLead) {
		t.Errorf("more=0 lists further files:\n%s", noneTxt)
	}
	if res := c.call(t, "search", map[string]any{"query": "retry", "more": tailMax + 1}); !res.IsError || !strings.Contains(resultText(res), "ceiling") {
		t.Errorf("more above the ceiling: %q", resultText(res))
	}
	// The budget counts the hits' blocks and the tail's lines: all but
	// the last fit.
	budget := strings.Index(txt, "\n[") + 1 - 1
	for _, m := range out.More {
		budget += len(tailLine(m))
	}
	cut, cutTxt := ok[searchOut](t, c, "search", map[string]any{"query": "retry with backoff", "k": 1, "more": 20, "max_bytes": budget})
	if !cut.Truncated || len(cut.More) >= len(out.More) || !strings.Contains(cutTxt, "more files did not fit") {
		t.Errorf("max_bytes %d: %d further files, truncated %v:\n%s", budget, len(cut.More), cut.Truncated, cutTxt)
	}
}

// TestSearchLongTail: a tail longer than alsoFiles adds files below and
// leaves the lines above as they were: the hits, with the lines of their
// files' other chunks, and every file of the shorter tail with its lines.
func TestSearchLongTail(t *testing.T) {
	r := gittest.New(t)
	files := gittest.ManyFiles(60)
	files["net/retry.go"] = gittest.RetryGo
	r.Commit("many", files)
	repo, err := gitindex.OpenRepo(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	c := connect(t, repo)
	short, shortTxt := ok[searchOut](t, c, "search", map[string]any{"query": "retry the request with backoff", "k": 3, "more": alsoFiles})
	long, longTxt := ok[searchOut](t, c, "search", map[string]any{"query": "retry the request with backoff", "k": 3})
	if len(long.More) <= len(short.More) || len(long.More) > compactMore {
		t.Fatalf("%d further files by default, %d with more=%d; want more, at most %d:\n%s", len(long.More), len(short.More), alsoFiles, compactMore, longTxt)
	}
	head := func(s string) string { return s[:strings.Index(s, tailLead)] }
	if !strings.Contains(shortTxt, tailLead) || head(shortTxt) != head(longTxt) {
		t.Errorf("the hits differ with a longer tail:\n%s\n---\n%s", shortTxt, longTxt)
	}
	lines := map[string]string{}
	for _, m := range long.More {
		lines[m.Path] = tailLine(m)
	}
	for _, m := range short.More {
		if lines[m.Path] != tailLine(m) {
			t.Errorf("%q with more=%d, %q by default", tailLine(m), alsoFiles, lines[m.Path])
		}
	}
}
