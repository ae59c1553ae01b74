package gitgrep

import (
	"bytes"
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bcindex/bcindex/indexer"
	"github.com/bcindex/bcindex/internal/testkit/gittest"
	"github.com/bcindex/bcindex/internal/testkit/indextest"
	"github.com/bcindex/bcindex/ngram"
	"github.com/bcindex/bcindex/store"
)

// piecedText is n lines of one length, and where ngram.Bounds cuts them:
// a line replaced by another of that length (mark) keeps the cuts.
func piecedText(n int) ([]byte, []int) {
	var b bytes.Buffer
	for i := range n {
		fmt.Fprintf(&b, "row %06d filler text of the boundary_%03d end\n", i, i%977)
	}
	return b.Bytes(), ngram.Bounds(b.Bytes())
}

// mark replaces the line starting at start with s, padded to its length.
func mark(t *testing.T, text []byte, start int, s string) {
	t.Helper()
	end := bytes.IndexByte(text[start:], '\n')
	if end < 0 {
		end = len(text) - start
	}
	if len(s) > end {
		t.Fatalf("mark %q is longer than the line", s)
	}
	copy(text[start:], s+strings.Repeat(" ", end-len(s)))
}

// lastLine is where the last line of text[:end] starts.
func lastLine(text []byte, end int) int {
	return bytes.LastIndexByte(text[:end-1], '\n') + 1
}

// piecedRepo commits big.txt, cut into pieces, with marks on the first
// and last lines of some pieces, on its first and last lines and inside a
// piece, and tail.txt, also cut, without a final newline; it returns the
// repository, big.txt's bytes and its pieces' ends.
func piecedRepo(t *testing.T) (*gittest.Repo, []byte, []int) {
	text, ends := piecedText(60000) // 2.8 MB, 43 pieces
	if len(ends) < 30 {
		t.Fatalf("%d pieces", len(ends))
	}
	mark(t, text, 0, "needle_top of the file")
	mark(t, text, ends[2], "needle_first in piece 3")
	mark(t, text, lastLine(text, ends[3]), "needle_last in piece 3")
	mark(t, text, ends[19], "NEEDLE_first late")
	mark(t, text, lastLine(text, ends[25]), "needle_last late")
	mark(t, text, ends[10]+47*7, "Func needleFunc(x int) error {")
	mark(t, text, lastLine(text, len(text)), "needle_bottom")
	if got := ngram.Bounds(text); !slicesEqual(got, ends) {
		t.Fatalf("marks moved the cuts: %v, not %v", got, ends)
	}
	tail, tends := piecedText(30000)
	tail = tail[:len(tail)-1] // no final newline
	mark(t, tail, lastLine(tail, len(tail)+1), "needle_last eof")
	if len(ngram.Bounds(tail)) < 2 {
		t.Fatalf("tail.txt is not cut: %v", tends)
	}
	mid, mends := midText()
	if len(mid) >= 1<<20 || len(mends) < 4 {
		t.Fatalf("mid.txt: %d bytes, %d pieces", len(mid), len(mends))
	}
	mark(t, mid, mends[0], "midpin_top piece 2")
	mark(t, mid, lastLine(mid, mends[1]), "midpin_end piece 2")
	mark(t, mid, lastLine(mid, len(mid)), "midpin_bottom")
	r := gittest.New(t)
	r.Commit("init", map[string]string{"big.txt": string(text), "tail.txt": string(tail), "mid.txt": string(mid), "small.txt": "needle_first small\n"})
	return r, text, ends
}

// midText is a file over ngram.PiecedSize and under 1 MiB (0.33 MB, 5
// pieces), and where it is cut.
func midText() ([]byte, []int) {
	return piecedText(7000)
}

func slicesEqual(a, b []int) bool {
	return fmt.Sprint(a) == fmt.Sprint(b)
}

// TestRunPiecesMatchGit: a search that reads only the pieces of a large
// file that may hold a match answers as git grep does, for matches on the
// first and last lines of pieces and of the file, on a last line without
// a newline, with line numbers in late pieces, with -i, regular
// expressions, -P, -F, -w, -o, --column, -m, -c, -l, -L, expressions, and
// with the context options, which read the whole file, across the
// pieces' ends.
func TestRunPiecesMatchGit(t *testing.T) {
	r, _, _ := piecedRepo(t)
	sameAsGit(t, r, [][]string{
		{"-n", "needle_first"},
		{"-n", "needle_last", "HEAD"},
		{"-n", "-i", "NEEDLE_FIRST"},
		{"-n", "-E", "needle_(first|last) (in|late)"},
		{"-n", "-G", "needle_bottom *$", "HEAD"},
		{"-n", "needle_top"},
		{"-n", "needle_last eof", "HEAD"},
		{"-n", "-P", `needle_(?:first|last)\b`},
		{"-n", "-F", "needle_last late"},
		{"-n", "-w", "needle_top"},
		{"-n", "--column", "-o", `needle_\w*`, "HEAD"},
		{"-n", "-m", "2", "needle"},
		{"-c", "needle"},
		{"-c", "-i", "needle_first", "HEAD"},
		{"-l", "needle_last"},
		{"-L", "needle_top"},
		{"-L", "needle_nowhere"},
		{"-n", "-e", "needle_first", "--and", "-e", "late"},
		{"-n", "-e", "needle_last", "--and", "--not", "-e", "late", "HEAD"},
		{"--all-match", "-n", "-e", "needle_top", "-e", "needle_bottom"},
		{"-n", "needleFunc"},
		{"-n", "boundary_976 end"},
		{"-n", "-P", `\Aneedle_top`},
		{"-n", "-P", `\Aneedle_first`},
		{"-n", "-E", `needle_first|^$`},
		{"-v", "-c", "filler"},
		{"-n", "-C2", "needle_first"},
		{"-n", "-B3", "needle_last", "HEAD"},
		{"-n", "-A2", "needle_last"},
		{"-n", "-p", "needle_first"},
		{"-n", "-W", "needleFunc"},
		{"-n", "needle_nowhere"},
		{"-n", "midpin"},
		{"-n", "midpin_end", "HEAD"},
		{"-c", "midpin_top"},
		{"-l", "-E", "midpin_(top|bottom)"},
		{"-L", "midpin_top"},
		{"-n", "-C1", "midpin_top", "HEAD"},
		{"-v", "-c", "midpin"},
	})
}

// TestRunPiecesStats: --stats reports the bytes decoded; a search that
// prints only matching lines decodes just the pieces that may hold them,
// one with context lines the whole file.
func TestRunPiecesStats(t *testing.T) {
	r, text, ends := piecedRepo(t)
	repo := indextest.Open(t, r.Dir)
	decoded := func(args ...string) int {
		t.Helper()
		var out, errs bytes.Buffer
		e := &Env{
			Repo: repo, Top: repo.WorkTree, Stdout: &out, Stderr: &errs,
			WantColor: func(string) bool { return false },
			Quote:     func(p string) string { return p },
			Open: func(ctx context.Context, want store.Want, _, noUpdate bool) (*store.View, error) {
				v, _, err := indexer.NewIndexer(repo, indexer.Options{}).Ensure(ctx, want, indexer.Exact, time.Minute)
				return v, err
			},
		}
		o, err := Parse(append([]string{"--stats"}, args...))
		if err == nil {
			err = Run(context.Background(), o, e)
		}
		if err != nil {
			t.Fatalf("%q: %v", args, err)
		}
		m := regexp.MustCompile(`(\d+) bytes of them decoded`).FindStringSubmatch(errs.String())
		if m == nil {
			t.Fatalf("%q: no bytes decoded in %q", args, errs.String())
		}
		n, _ := strconv.Atoi(m[1])
		return n
	}
	piece := func(k int) int {
		if k == 0 {
			return ends[0]
		}
		return ends[k] - ends[k-1]
	}
	small := len("needle_first small\n")
	if got, want := decoded("-n", "needle_first", "HEAD"), piece(2)+piece(19)+small; got != want {
		t.Errorf("needle_first: %d bytes decoded, want pieces 3 and 20 and small.txt: %d", got, want)
	}
	if got, want := decoded("-c", "needle_last late", "HEAD"), piece(25); got != want {
		t.Errorf("needle_last late: %d bytes decoded, want piece 26: %d", got, want)
	}
	_, mends := midText()
	if got, want := decoded("-n", "midpin_end", "HEAD"), mends[1]-mends[0]; got != want {
		t.Errorf("midpin_end: %d bytes decoded, want mid.txt's piece 2: %d", got, want)
	}
	if got, want := decoded("-n", "-C1", "needle_first", "HEAD"), len(text)+small; got != want {
		t.Errorf("needle_first -C1: %d bytes decoded, want the whole file: %d", got, want)
	}
}
