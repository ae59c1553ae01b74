package train

import (
	"strings"
	"testing"
)

const namesGo = `package retry

import "time"

// Do runs f until it succeeds.
func Do(f func() error) error {
	return nil
}

func retryWithBackoff(attempts int, f func() error) error {
	delay := time.Millisecond
	for i := 0; i < attempts; i++ {
		if err := f(); err == nil {
			return nil
		}
		time.Sleep(delay)
		delay *= 2
	}
	return retryWithBackoff(0, f)
}

func TestRetry(attempts int, f func() error) error {
	delay := time.Millisecond
	for i := 0; i < attempts; i++ {
		time.Sleep(delay)
	}
	return nil
}
`

func TestNamePairs(t *testing.T) {
	u := MineFile("net/backoff_policy.go", []byte(namesGo))
	byQuery := map[string]Named{}
	for _, n := range u.Named {
		byQuery[n.Query] = n
	}
	n, ok := byQuery["retry with backoff"]
	if !ok || n.Kind != KindName {
		t.Fatalf("no name pair for retryWithBackoff: %+v", u.Named)
	}
	if strings.Contains(n.Code, "retryWithBackoff") || !strings.Contains(n.Code, "time.Sleep(delay)") {
		t.Errorf("name not masked, or body lost:\n%s", n.Code)
	}
	if _, ok := byQuery["do"]; ok {
		t.Error("a one-word name with no parent made a pair")
	}
	if _, ok := byQuery["test retry"]; ok {
		t.Error("a test function made a pair")
	}
	p, ok := byQuery["net backoff policy"]
	if !ok || p.Kind != KindPath {
		t.Fatalf("no path pair for net/backoff_policy.go: %+v", u.Named)
	}
	if !strings.Contains(p.Code, "package retry") {
		t.Errorf("path pair's text is not the file chunk's:\n%s", p.Code)
	}
	if got := MineFile("net/backoff_test.go", []byte(namesGo)).Named; len(got) != 0 {
		t.Errorf("a test file made pairs: %+v", got)
	}
}

func TestMask(t *testing.T) {
	if got := maskIdent("def read(self): return self.read_all() + read(x)", "read"); got != "def  (self): return self.read_all() +  (x)" {
		t.Errorf("maskIdent: %q", got)
	}
	if got := maskStem("class RetryPolicy: retry_policy = RETRY_POLICY; retry", "retry-policy"); got != "class  :   =  ; retry" {
		t.Errorf("maskStem: %q", got)
	}
	for p, want := range map[string]bool{
		"src/foo.go": false, "foo_test.go": true, "tests/x.py": true, "test_x.py": true, "a/FooTest.java": true,
		"lib/spec/x.rb": true, "x.spec.ts": true, "latest.go": false, "FooTests.cs": true, "contest/x.go": false,
	} {
		if got := isTestPath(p); got != want {
			t.Errorf("isTestPath(%q) = %v, want %v", p, got, want)
		}
	}
}
