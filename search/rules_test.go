package search

import (
	"fmt"
	"strings"
	"testing"

	"github.com/bcindex/bcindex/internal/testkit/gittest"
)

// TestPathShare: the share of a query's words in the file's name and
// directory, other forms matching by a common prefix of four letters.
func TestPathShare(t *testing.T) {
	q := mustParse(t, "how the dependencies of a task are resolved")
	kw := queryKeywords(q)
	if strings.Join(kw, " ") != "dependencies task resolved" {
		t.Fatalf("keywords %q", kw)
	}
	for _, c := range []struct {
		path string
		want float64
	}{
		{"pkg/dependency.go", 1.0 / 3},
		{"task/resolve_dependencies.go", 1},
		{"lib/other.go", 0},
	} {
		if got := pathShare(c.path, newPathWords(kw)); fmt.Sprintf("%.3f", got) != fmt.Sprintf("%.3f", c.want) {
			t.Errorf("pathShare(%s) = %.3f, want %.3f", c.path, got, c.want)
		}
	}
	if kw := queryKeywords(mustParse(t, "ParseConfig")); kw != nil {
		t.Errorf("a name looked up has path keywords %q", kw)
	}
}

// TestNamedFile: a query word names a file by its name, with or without
// the extension, squashed.
func TestNamedFile(t *testing.T) {
	for _, c := range []struct {
		path, query string
		want        bool
	}{
		{"processor.go", "what does processor.go do", true},
		{"x/rate_limiter.go", "the RateLimiter token refill", true},
		{"x/rate_limiter.go", "limit the rate of requests", false},
		{"a/io.go", "io", false}, // too short to name a file
	} {
		if got := namedFile(c.path, mustParse(t, c.query)); got != c.want {
			t.Errorf("namedFile(%s, %q) = %v", c.path, c.query, got)
		}
	}
}

// TestSentenceNames: the code names a sentence spells; none for a name
// looked up alone.
func TestSentenceNames(t *testing.T) {
	got := sentenceNames(mustParse(t, "where does HonoRequest parse the body with parse_body or http.Client"))
	if strings.Join(got, " ") != "honorequest parsebody httpclient client" {
		t.Errorf("sentenceNames = %q", got)
	}
	if got := sentenceNames(mustParse(t, "HonoRequest")); got != nil {
		t.Errorf("a name alone: %q", got)
	}
}

// longFuncs is a Go file of two functions of over 50 lines each, whose
// loops become block chunks, and a short third one.
func longFuncs() string {
	var b strings.Builder
	b.WriteString("package work\n\n")
	for _, name := range []string{"drainQueue", "flushBuffers"} {
		fmt.Fprintf(&b, "// %s empties what it holds.\nfunc %s(items []int) int {\n\ttotal := 0\n", name, name)
		for i := range 8 {
			fmt.Fprintf(&b, "\tfor _, it := range items {\n\t\tif it > %d {\n\t\t\ttotal += it * %d // %s step %d\n\t\t}\n\t\ttotal++\n\t\ttotal--\n\t}\n", i, i, name, i)
		}
		b.WriteString("\treturn total\n}\n\n")
	}
	b.WriteString("func small() int { return 1 }\n")
	return b.String()
}

// TestBlocksAnswerAsTheirFunction: a block chunk an arm scores counts
// for its function, which answers whole; a file holds at most two hits
// before every other file's first.
func TestBlocksAnswerAsTheirFunction(t *testing.T) {
	r := gittest.New(t)
	files := map[string]string{"work/long.go": longFuncs()}
	for i := range 4 {
		files[fmt.Sprintf("other/step%d.go", i)] = fmt.Sprintf("package other\n\n// stepper%d counts items by step.\nfunc stepper%d(items []int) int { return len(items) * %d }\n", i, i, i)
	}
	r.Commit("init", files)
	repo := openRepo(t, r.Dir)
	res, _ := runIndexing(t, repo, Options{Query: "total items step loop"})
	perFile := map[string]int{}
	firstOther := -1
	for i, h := range res.Hits {
		if h.Kind == "block" {
			t.Errorf("hit %d is a block: %s %s", i, h.Path, h.Name)
		}
		perFile[h.Path]++
		if h.Path != "work/long.go" && firstOther < 0 {
			firstOther = i
		}
		if h.Path == "work/long.go" && perFile[h.Path] > 2 && firstOther < 0 {
			t.Errorf("hit %d is work/long.go's third before any other file", i)
		}
	}
	if perFile["work/long.go"] == 0 {
		t.Fatalf("no hit in work/long.go: %+v", res.Hits)
	}
	// --kind block still finds the blocks.
	res = runAsIs(t, repo, Options{Query: "total items step loop", Kind: "block"})
	if len(res.Hits) == 0 || res.Hits[0].Kind != "block" {
		t.Errorf("--kind block: %+v", res.Hits)
	}
}
