package grep

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/bcindex/bcindex/exact"
	"github.com/bcindex/bcindex/internal/testkit/gittest"
)

// TestGrepLargeFileInPieces: a large text file, indexed in pieces, is read
// only when one piece may hold a match: a pattern whose words the file
// holds far apart reads nothing, one on a single line reads it, and the
// lines are git grep's.
func TestGrepLargeFileInPieces(t *testing.T) {
	for _, n := range []int{60000, 16000} { // about 2 MB, 0.35 MB
		t.Run(fmt.Sprint(n), func(t *testing.T) { grepInPieces(t, n) })
	}
}

// grepInPieces is TestGrepLargeFileInPieces for a file of n lines.
func grepInPieces(t *testing.T, n int) {
	var b strings.Builder
	for i := 0; i < n; i++ {
		switch i {
		case n / 100:
			b.WriteString("alpha_key starts here\n")
		case n - n/100:
			b.WriteString("omega_key ends here\n")
		}
		fmt.Fprintf(&b, "row %d filler text\n", i)
	}
	r := gittest.New(t)
	r.Commit("init", map[string]string{"big.txt": b.String()})
	repo := openRepo(t, r.Dir)
	for _, c := range []struct {
		pattern string
		read    int // blobs read and verified
	}{
		{`alpha_key.*omega_key`, 0},
		{`omega_key|alpha_key`, 1},
		{`row 3\d{4} filler`, 1},
		{`filler text of`, 0},
	} {
		m, err := exact.Compile([]string{c.pattern}, exact.Options{})
		if err != nil {
			t.Fatal(err)
		}
		got, st := grepLines(t, repo, Options{Matcher: m})
		if want := gitGrep(t, r, "HEAD", []string{"-P"}, c.pattern); !slices.Equal(got, want) {
			t.Errorf("%q: %d lines, git grep %d", c.pattern, len(got), len(want))
		}
		if st.Blobs != 1 || st.Candidates+st.Unindexed != c.read {
			t.Errorf("%q: %d of %d blobs read (%d not covered), want %d", c.pattern, st.Candidates+st.Unindexed, st.Blobs, st.Unindexed, c.read)
		}
	}
}
