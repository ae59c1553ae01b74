package agents

import (
	"fmt"
	"strings"
)

// Diff shows the change as a unified diff of the lines that differ, with
// two lines of context: enough for --dry-run, since every change here is
// one region of the file. name heads it: a repository path gets git's a/
// and b/, a user's file (~/...) is written as it is.
func (c Change) Diff(name string) string {
	a := splitLines(c.Before)
	b := splitLines(c.After)
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	from, to := "a/"+name, "b/"+name
	if strings.HasPrefix(name, "~") || strings.HasPrefix(name, "/") {
		from, to = name, name // a user's file, not the repository's
	}
	if c.Before == nil {
		from = "/dev/null"
	}
	if c.After == nil {
		to = "/dev/null"
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "--- %s\n+++ %s\n", from, to)
	start := max(pre-2, 0)
	endA, endB := min(len(a)-suf+2, len(a)), min(len(b)-suf+2, len(b))
	fmt.Fprintf(&sb, "@@ -%s +%s @@\n", span(start, endA-start), span(start, endB-start))
	for _, l := range a[start:pre] {
		sb.WriteString(" " + l + "\n")
	}
	for _, l := range a[pre : len(a)-suf] {
		sb.WriteString("-" + l + "\n")
	}
	for _, l := range b[pre : len(b)-suf] {
		sb.WriteString("+" + l + "\n")
	}
	for _, l := range a[len(a)-suf : endA] {
		sb.WriteString(" " + l + "\n")
	}
	return sb.String()
}

func span(start, n int) string {
	if n == 0 {
		return fmt.Sprintf("%d,0", start)
	}
	return fmt.Sprintf("%d,%d", start+1, n)
}

func splitLines(b []byte) []string {
	if len(b) == 0 {
		return nil
	}
	return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
}
