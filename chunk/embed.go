package chunk

import (
	"strings"
	"unicode/utf8"
)

// EmbedBudget is the default embedding input budget in characters.
const EmbedBudget = 1500

// EmbedWindows splits text (a chunk's IndexText) into overlapping windows of
// at most budget characters (runes) each for the embedder; every window but
// the first starts with the signature line, so that each piece says what it
// belongs to. Windows break at line ends when they can and overlap by about
// an eighth of the budget. Text within the budget is returned whole; empty
// text gives nil. budget <= 0 means EmbedBudget.
func EmbedWindows(text, signature string, budget int) []string {
	if budget <= 0 {
		budget = EmbedBudget
	}
	if strings.TrimSpace(text) == "" {
		return nil
	}
	if utf8.RuneCountInString(text) <= budget {
		return []string{text}
	}
	signature = strings.TrimSpace(signature)
	head := ""
	if signature != "" && utf8.RuneCountInString(signature) < budget/2 {
		head = signature + "\n"
	}
	var out []string
	overlap := budget / 8
	for pos := 0; pos < len(text); {
		prefix := ""
		if pos > 0 {
			prefix = head
		}
		room := budget - utf8.RuneCountInString(prefix)
		end := advanceRunes(text, pos, room)
		if end < len(text) {
			// Break after the last newline in the second half of the window.
			if nl := strings.LastIndexByte(text[pos:end], '\n'); nl > 0 && utf8.RuneCountInString(text[pos:pos+nl]) > room/2 {
				end = pos + nl + 1
			}
		}
		out = append(out, prefix+text[pos:end])
		if end >= len(text) {
			break
		}
		next := backRunes(text, end, overlap)
		// Start the next window at a line start within the overlap.
		if nl := strings.IndexByte(text[next:end], '\n'); nl >= 0 && next+nl+1 < end {
			next += nl + 1
		}
		if next <= pos {
			next = end
		}
		pos = next
	}
	return out
}

// advanceRunes returns the byte offset n runes after pos (or len(s)).
func advanceRunes(s string, pos, n int) int {
	for ; n > 0 && pos < len(s); n-- {
		_, size := utf8.DecodeRuneInString(s[pos:])
		pos += size
	}
	return pos
}

// backRunes returns the byte offset n runes before pos (or 0).
func backRunes(s string, pos, n int) int {
	for ; n > 0 && pos > 0; n-- {
		_, size := utf8.DecodeLastRuneInString(s[:pos])
		pos -= size
	}
	return pos
}
