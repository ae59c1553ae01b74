package pickaxe

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
)

// Line is a line added or removed by a change that holds a match.
type Line struct {
	Number int    `json:"line"` // in the new blob when added, the old one when removed
	Text   string `json:"text"`
}

// numbered is a line of a blob with its "\n" and its 1-based number.
type numbered struct {
	n    int
	text []byte
}

// splitLines splits content after each "\n".
func splitLines(content []byte) []numbered {
	var out []numbered
	for n := 1; len(content) > 0; n++ {
		i := bytes.IndexByte(content, '\n') + 1
		if i == 0 {
			i = len(content)
		}
		out = append(out, numbered{n, content[:i]})
		content = content[i:]
	}
	return out
}

// changedMatches compares the lines of old and new that hold a match,
// outside the lines both start and end with (which git's diff trims before
// it diffs, so they are never added or removed). added and removed are the
// matching lines whose number of copies went up or down: any diff adds or
// removes that many copies of them. sameNonEmpty is true when matching
// lines remain on both sides in equal numbers, so that only the diff
// itself can say whether it moved any of them. unaligned is true when
// added and removed may not be the lines git's diff shows: a matching
// line whose text the other blob holds too (between the trimmed lines or
// among them) may be paired with a copy there or not, and which copies
// are new is the diff's alignment to say, not their count. A matching
// line whose text the other blob lacks is added or removed by any diff.
func changedMatches(m Matcher, old, new []byte) (added, removed []Line, sameNonEmpty, unaligned bool) {
	all := splitLines(old)
	a, b := all, splitLines(new)
	for len(a) > 0 && len(b) > 0 && bytes.Equal(a[0].text, b[0].text) {
		a, b = a[1:], b[1:]
	}
	prefix := len(all) - len(a)
	for len(a) > 0 && len(b) > 0 && bytes.Equal(a[len(a)-1].text, b[len(b)-1].text) {
		a, b = a[:len(a)-1], b[:len(b)-1]
	}
	count := map[string]int{}
	side := map[string]uint8{} // 1: in old's matching lines, 2: in new's
	var ma, mb []numbered
	for _, l := range a {
		if matchLine(m, l.text) {
			ma = append(ma, l)
			count[string(l.text)]--
			side[string(l.text)] |= 1
		}
	}
	for _, l := range b {
		if matchLine(m, l.text) {
			mb = append(mb, l)
			count[string(l.text)]++
			side[string(l.text)] |= 2
		}
	}
	for _, v := range side {
		unaligned = unaligned || v == 3
	}
	if !unaligned && len(side) > 0 {
		// The lines both blobs start and end with are in both.
		for _, l := range append(all[:prefix:prefix], all[prefix+len(a):]...) {
			if _, ok := side[string(l.text)]; ok {
				unaligned = true
				break
			}
		}
	}
	// Report the last copies removed and the last copies added of a line.
	for i := len(ma) - 1; i >= 0; i-- {
		if k := string(ma[i].text); count[k] < 0 {
			count[k]++
			removed = append([]Line{lineOf(ma[i])}, removed...)
		}
	}
	for i := len(mb) - 1; i >= 0; i-- {
		if k := string(mb[i].text); count[k] > 0 {
			count[k]--
			added = append([]Line{lineOf(mb[i])}, added...)
		}
	}
	return added, removed, len(added) == 0 && len(removed) == 0 && len(ma) > 0, unaligned
}

// matchLine matches a line as git's diff hands it to -G: with a "\n" even
// when the blob's last line lacks one (the "\ No newline at end of file"
// marker brings it), so that '$' and "\s" see the same bytes.
func matchLine(m Matcher, line []byte) bool {
	if len(line) == 0 || line[len(line)-1] != '\n' {
		line = append(line[:len(line):len(line)], '\n')
	}
	return m.MatchLine(line)
}

func lineOf(l numbered) Line {
	return Line{Number: l.n, Text: strings.TrimRight(string(l.text), "\r\n")}
}

// gitDiffMatches runs git's own diff of two blobs and returns its added and
// removed lines that hold a match: the answer when the lines that match are
// the same on both sides and only the diff's alignment decides. It honours
// the repository's diff.algorithm, as git log -G does.
func gitDiffMatches(ctx context.Context, gitDir string, m Matcher, old, new plumbing.Hash) (added, removed []Line, err error) {
	cmd := exec.CommandContext(ctx, "git", "--git-dir="+gitDir, "diff", "--no-ext-diff", "--no-textconv",
		"--no-color", "--no-renames", "-U0", old.String(), new.String())
	out, err := cmd.Output()
	if err != nil {
		return nil, nil, fmt.Errorf("git diff %s %s: %w", old, new, err)
	}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<30)
	inHunk := false
	oldN, newN := 0, 0
	for sc.Scan() {
		l := sc.Bytes()
		if bytes.HasPrefix(l, []byte("@@ ")) {
			inHunk = true
			oldN, newN = hunkStarts(string(l))
			continue
		}
		if !inHunk || len(l) == 0 {
			continue
		}
		text := append(append([]byte(nil), l[1:]...), '\n')
		switch l[0] {
		case '-':
			if m.MatchLine(text) {
				removed = append(removed, Line{oldN, strings.TrimRight(string(l[1:]), "\r")})
			}
			oldN++
		case '+':
			if m.MatchLine(text) {
				added = append(added, Line{newN, strings.TrimRight(string(l[1:]), "\r")})
			}
			newN++
		}
	}
	return added, removed, sc.Err()
}

// hunkStarts reads the first old and new line numbers of "@@ -a,b +c,d @@".
func hunkStarts(h string) (int, int) {
	f := strings.Fields(h)
	if len(f) < 3 {
		return 0, 0
	}
	num := func(s string) int {
		s, _, _ = strings.Cut(s[1:], ",")
		n, _ := strconv.Atoi(s)
		return n
	}
	return num(f[1]), num(f[2])
}
