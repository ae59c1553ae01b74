package pickaxe

import (
	"bufio"
	"bytes"
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
)

// emptyTree is the tree with no entries, which a root commit is diffed
// against.
var emptyTree = plumbing.NewHash("4b825dc642cb6eb9a060e54bf8d69288fbee4904")

// diffOptions are the settings a diff's alignment depends on: git log -G
// honours diff.algorithm and diff.indentHeuristic, which plumbing does not
// read, so they are read once and passed explicitly, and stored with the
// diffs. -S does not depend on them.
type diffOptions struct {
	Algorithm string // myers, minimal, patience or histogram
	Indent    bool
}

func (o diffOptions) String() string {
	return fmt.Sprintf("algorithm=%s indent=%t", o.Algorithm, o.Indent)
}

// readDiffOptions reads the repository's diff settings as git log would
// (its own, global and command-line configuration).
func readDiffOptions(ctx context.Context, gitDir string) diffOptions {
	o := diffOptions{Algorithm: "myers", Indent: true}
	get := func(args ...string) string {
		out, err := exec.CommandContext(ctx, "git", append([]string{"--git-dir=" + gitDir, "config"}, args...)...).Output()
		if err != nil {
			return ""
		}
		return strings.TrimSpace(string(out))
	}
	switch a := strings.ToLower(get("diff.algorithm")); a {
	case "minimal", "patience", "histogram":
		o.Algorithm = a
	}
	if get("--type=bool", "diff.indentHeuristic") == "false" {
		o.Indent = false
	}
	return o
}

// diffPair is one commit's diff against its first parent, by trees.
type diffPair struct {
	from, to plumbing.Hash // from is emptyTree for a root commit
	changes  []changeKey   // the changes the record of each file goes to
}

// changeKey names a change within a commit by its blobs (zero: absent).
type changeKey struct{ from, to plumbing.Hash }

// gitDiffs runs git diff-tree over pairs and calls put with each change's
// encoded record (see encodeRecord) in the order of pairs and, within a
// pair, in the order of its changes; a change git printed no patch for (a
// mode change, a change of type, which git shows as a deletion and an
// addition) gets nil. Records are git's own patches with no context, so
// that -G sees the lines git log -G sees.
func gitDiffs(ctx context.Context, gitDir string, opts diffOptions, pairs []diffPair, put func(pair, change int, rec []byte) error) error {
	args := []string{"--git-dir=" + gitDir, "diff-tree", "--stdin", "-r", "-p", "-U0", "--no-renames",
		"--no-color", "--no-ext-diff", "--no-textconv", "--full-index", "--diff-algorithm=" + opts.Algorithm}
	if opts.Indent {
		args = append(args, "--indent-heuristic")
	} else {
		args = append(args, "--no-indent-heuristic")
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", args...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("git diff-tree: %w", err)
	}
	werr := make(chan error, 1)
	go func() {
		w := bufio.NewWriter(stdin)
		for _, p := range pairs {
			if _, err := fmt.Fprintf(w, "%s %s\n", p.from, p.to); err != nil {
				werr <- err
				stdin.Close()
				return
			}
		}
		err := w.Flush()
		stdin.Close()
		werr <- err
	}()
	perr := parseDiffs(bufio.NewReaderSize(stdout, 1<<16), pairs, put)
	if perr != nil {
		cancel()
	}
	io.Copy(io.Discard, stdout)
	err = cmd.Wait()
	if perr != nil {
		return perr
	}
	if err != nil {
		return fmt.Errorf("git diff-tree: %w: %s", err, strings.TrimSpace(stderr.String()))
	}
	if err := <-werr; err != nil {
		return fmt.Errorf("git diff-tree: %w", err)
	}
	return nil
}

// parseDiffs reads diff-tree's output: for each pair the line it was
// given, then a patch per changed file.
func parseDiffs(r *bufio.Reader, pairs []diffPair, put func(pair, change int, rec []byte) error) error {
	pi := -1
	var recs [][]byte // of the current pair, by change
	var cur *fileDiff
	flushFile := func() error {
		if cur == nil {
			return nil
		}
		f := cur
		cur = nil
		if !f.indexed {
			return nil // a mode change alone: no content to compare
		}
		for ci, k := range pairs[pi].changes {
			if k == (changeKey{f.from, f.to}) && recs[ci] == nil {
				recs[ci] = f.encode()
				return nil
			}
		}
		return nil // a change of type shows as a deletion and an addition: read from git
	}
	flushPair := func() error {
		if err := flushFile(); err != nil {
			return err
		}
		if pi < 0 {
			return nil
		}
		for ci, rec := range recs {
			if err := put(pi, ci, rec); err != nil {
				return err
			}
		}
		return nil
	}
	for {
		line, err := readLine(r)
		if len(line) == 0 && err != nil {
			if errors.Is(err, io.EOF) {
				break
			}
			return fmt.Errorf("read git diff-tree: %w", err)
		}
		if len(line) > 0 && line[len(line)-1] == '\n' {
			line = line[:len(line)-1]
		}
		switch {
		case len(line) == 81 && line[40] == ' ' && isHex(line[:40]) && isHex(line[41:]):
			if err := flushPair(); err != nil {
				return err
			}
			pi++
			if pi >= len(pairs) || string(line[:40]) != pairs[pi].from.String() || string(line[41:]) != pairs[pi].to.String() {
				return fmt.Errorf("git diff-tree: unexpected line %q", line)
			}
			recs = make([][]byte, len(pairs[pi].changes))
		case pi < 0:
			return fmt.Errorf("git diff-tree: unexpected line %q", line)
		case bytes.HasPrefix(line, []byte("diff --git ")):
			if err := flushFile(); err != nil {
				return err
			}
			cur = &fileDiff{}
		case cur == nil:
			return fmt.Errorf("git diff-tree: unexpected line %q", line)
		case cur.inHunks:
			if err := cur.hunkLine(line); err != nil {
				return err
			}
		case bytes.HasPrefix(line, []byte("index ")):
			if err := cur.indexLine(line); err != nil {
				return err
			}
		case bytes.HasPrefix(line, []byte("Binary files ")):
			cur.binary = true
		case bytes.HasPrefix(line, []byte("@@ ")):
			cur.inHunks = true
			if err := cur.hunkLine(line); err != nil {
				return err
			}
		}
		// Other header lines (modes, ---, +++) say nothing the change
		// table does not.
	}
	if pi != len(pairs)-1 {
		return fmt.Errorf("git diff-tree: %d of %d commits diffed", pi+1, len(pairs))
	}
	return flushPair()
}

// readLine reads one line of any length.
func readLine(r *bufio.Reader) ([]byte, error) {
	line, err := r.ReadSlice('\n')
	if !errors.Is(err, bufio.ErrBufferFull) {
		return line, err
	}
	long := append([]byte(nil), line...)
	for errors.Is(err, bufio.ErrBufferFull) {
		line, err = r.ReadSlice('\n')
		long = append(long, line...)
	}
	return long, err
}

func isHex(b []byte) bool {
	for _, c := range b {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// fileDiff is one file's patch as it is read.
type fileDiff struct {
	from, to         plumbing.Hash
	indexed, binary  bool
	inHunks          bool
	hunks            []hunk
	removed, added   []byte
	oldLeft, newLeft int // lines of the current hunk still to come
}

// hunk is a hunk's header: where its removed lines were in the old blob
// and its added lines are in the new one.
type hunk struct{ oldStart, oldCount, newStart, newCount int }

// indexLine reads "index <from>..<to>[ <mode>]".
func (f *fileDiff) indexLine(line []byte) error {
	rest, _, _ := bytes.Cut(line[len("index "):], []byte(" "))
	a, b, ok := bytes.Cut(rest, []byte(".."))
	if !ok || len(a) != 40 || len(b) != 40 {
		return fmt.Errorf("git diff-tree: unexpected line %q", line)
	}
	hex.Decode(f.from[:], a)
	hex.Decode(f.to[:], b)
	f.indexed = true
	return nil
}

// hunkLine reads a hunk header or one of its lines.
func (f *fileDiff) hunkLine(line []byte) error {
	switch {
	case len(line) > 0 && line[0] == '-' && f.oldLeft > 0:
		f.removed = append(append(f.removed, line[1:]...), '\n')
		f.oldLeft--
	case len(line) > 0 && line[0] == '+' && f.newLeft > 0:
		f.added = append(append(f.added, line[1:]...), '\n')
		f.newLeft--
	case len(line) > 0 && line[0] == '\\':
		// "\ No newline at end of file": the line is matched with its
		// newline all the same, as git's diff hands it to -G.
	case bytes.HasPrefix(line, []byte("@@ ")) && f.oldLeft == 0 && f.newLeft == 0:
		h, ok := parseHunk(line)
		if !ok {
			return fmt.Errorf("git diff-tree: unexpected hunk header %q", line)
		}
		f.hunks = append(f.hunks, h)
		f.oldLeft, f.newLeft = h.oldCount, h.newCount
	default:
		return fmt.Errorf("git diff-tree: unexpected line %q", line)
	}
	return nil
}

// parseHunk reads "@@ -a[,b] +c[,d] @@...".
func parseHunk(line []byte) (hunk, bool) {
	f := strings.Fields(string(line))
	if len(f) < 4 || f[3] != "@@" || !strings.HasPrefix(f[1], "-") || !strings.HasPrefix(f[2], "+") {
		return hunk{}, false
	}
	rng := func(s string) (int, int, bool) {
		a, b, has := strings.Cut(s[1:], ",")
		start, err := strconv.Atoi(a)
		if err != nil || start < 0 {
			return 0, 0, false
		}
		n := 1
		if has {
			if n, err = strconv.Atoi(b); err != nil || n < 0 {
				return 0, 0, false
			}
		}
		return start, n, true
	}
	var h hunk
	var ok1, ok2 bool
	h.oldStart, h.oldCount, ok1 = rng(f[1])
	h.newStart, h.newCount, ok2 = rng(f[2])
	return h, ok1 && ok2
}
