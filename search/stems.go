package search

import "strings"

// English inflections for the text arm: a query in words says
// "dependencies" where the code says dependency, "matching" where it says
// match. A query term also matches the other forms of its word (plural,
// -ing, -ed, -er), at a share of its own weight (fusionConfig.stemWeight),
// as one term: its rows' frequencies add, its document frequency is that
// of the forms together. The index stays as it is; only the query's words
// grow.

// wordForms returns the other forms of a lowercase word: its base (a
// plural's, an -ing or -ed form's) and the base's plural, -ing, -ed and -er
// forms; nothing for a word of fewer than four letters or one holding
// anything but letters.
func wordForms(t string) []string {
	if len(t) < 4 {
		return nil
	}
	for i := 0; i < len(t); i++ {
		if t[i] < 'a' || t[i] > 'z' {
			return nil
		}
	}
	var bases []string
	switch {
	case strings.HasSuffix(t, "ies") && len(t) > 4:
		bases = append(bases, t[:len(t)-3]+"y")
	case strings.HasSuffix(t, "sses"), strings.HasSuffix(t, "xes"), strings.HasSuffix(t, "ches"), strings.HasSuffix(t, "shes"):
		bases = append(bases, t[:len(t)-2], t[:len(t)-1])
	case strings.HasSuffix(t, "ss"), strings.HasSuffix(t, "us"), strings.HasSuffix(t, "is"):
		bases = append(bases, t)
	case strings.HasSuffix(t, "s"):
		bases = append(bases, t[:len(t)-1])
	case strings.HasSuffix(t, "ing") && len(t) > 5:
		b := t[:len(t)-3]
		bases = append(bases, b, b+"e")
		if n := len(b); n > 2 && b[n-1] == b[n-2] {
			bases = append(bases, b[:n-1])
		}
	case strings.HasSuffix(t, "ed") && len(t) > 4:
		b := t[:len(t)-2]
		bases = append(bases, b, b+"e")
		if n := len(b); n > 2 && b[n-1] == b[n-2] {
			bases = append(bases, b[:n-1])
		}
		if strings.HasSuffix(t, "ied") {
			bases = append(bases, t[:len(t)-3]+"y")
		}
	case strings.HasSuffix(t, "er") && len(t) > 4:
		b := t[:len(t)-2]
		bases = append(bases, t, b, b+"e")
	default:
		bases = append(bases, t)
	}
	seen := map[string]bool{t: true}
	var out []string
	add := func(w string) {
		if len(w) >= 3 && !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	for _, b := range bases {
		add(b)
		if strings.HasSuffix(b, "e") {
			add(b + "s")
			add(b + "d")
			add(b[:len(b)-1] + "ing")
			add(b + "r")
			continue
		}
		switch {
		case strings.HasSuffix(b, "y") && len(b) > 1 && !strings.ContainsRune("aeiou", rune(b[len(b)-2])):
			add(b[:len(b)-1] + "ies")
			add(b[:len(b)-1] + "ied")
		case strings.HasSuffix(b, "s"), strings.HasSuffix(b, "x"), strings.HasSuffix(b, "ch"), strings.HasSuffix(b, "sh"):
			add(b + "es")
		default:
			add(b + "s")
		}
		add(b + "ing")
		add(b + "ed")
		add(b + "er")
	}
	return out
}
