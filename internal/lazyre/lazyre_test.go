package lazyre

import (
	"testing"
)

func TestNew(t *testing.T) {
	re := New(`a(b+)c`)
	first := re()
	if first != re() {
		t.Fatal("a second call compiled the expression again")
	}
	if m := first.FindStringSubmatch("xabbbc"); len(m) != 2 || m[1] != "bbb" {
		t.Fatalf("match: %q", m)
	}
}

func TestNewBadExpressionPanicsOnUse(t *testing.T) {
	re := New(`a(`) // no panic here: nothing is compiled yet
	defer func() {
		if recover() == nil {
			t.Fatal("a bad expression did not panic on first use")
		}
	}()
	re()
}
