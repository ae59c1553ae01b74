package gitgrep

import (
	"fmt"
	"strconv"
	"strings"
)

// parseColor turns a git colour value ("bold red", "ul #ff0000 black",
// "202", "normal") into the SGR sequence git's color_parse writes:
// attributes in the order of their codes, then the foreground, then the
// background. An invalid value gives "" (no colour).
func parseColor(v string) string {
	attrs := map[int]bool{}
	var colors []string // foreground, then background
	for _, w := range strings.Fields(strings.ToLower(v)) {
		if c, ok := colorWord(w); ok {
			if len(colors) == 2 {
				return ""
			}
			colors = append(colors, c)
			continue
		}
		code, ok := attrCode(w)
		if !ok {
			return ""
		}
		attrs[code] = true
	}
	var parts []string
	for code := 0; code < 32; code++ {
		if attrs[code] {
			parts = append(parts, strconv.Itoa(code))
		}
	}
	for i, c := range colors {
		if c == "" {
			continue // normal: no colour
		}
		if i == 0 {
			parts = append(parts, c)
		} else {
			parts = append(parts, background(c))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "\x1b[" + strings.Join(parts, ";") + "m"
}

var colorNames = []string{"black", "red", "green", "yellow", "blue", "magenta", "cyan", "white"}

// colorWord reads a colour as a foreground code ("" for normal).
func colorWord(w string) (string, bool) {
	switch w {
	case "normal":
		return "", true
	case "default":
		return "39", true
	}
	for i, n := range colorNames {
		switch w {
		case n:
			return strconv.Itoa(30 + i), true
		case "bright" + n:
			return strconv.Itoa(90 + i), true
		}
	}
	if n, err := strconv.Atoi(w); err == nil && n >= -1 && n < 256 {
		switch {
		case n < 0:
			return "", true
		case n < 8:
			return strconv.Itoa(30 + n), true
		case n < 16:
			return strconv.Itoa(90 + n - 8), true
		}
		return fmt.Sprintf("38;5;%d", n), true
	}
	if len(w) == 7 && w[0] == '#' {
		r, e1 := strconv.ParseUint(w[1:3], 16, 8)
		g, e2 := strconv.ParseUint(w[3:5], 16, 8)
		b, e3 := strconv.ParseUint(w[5:7], 16, 8)
		if e1 == nil && e2 == nil && e3 == nil {
			return fmt.Sprintf("38;2;%d;%d;%d", r, g, b), true
		}
	}
	return "", false
}

// background turns a foreground code into the background's.
func background(fg string) string {
	switch {
	case strings.HasPrefix(fg, "38;"):
		return "48;" + fg[3:]
	case fg == "39":
		return "49"
	case strings.HasPrefix(fg, "9"):
		return "10" + fg[1:]
	}
	return "4" + fg[1:]
}

// attrCode reads an attribute as its SGR code.
func attrCode(w string) (int, bool) {
	codes := map[string]int{"bold": 1, "dim": 2, "italic": 3, "ul": 4, "blink": 5, "reverse": 7, "strike": 9}
	if c, ok := codes[w]; ok {
		return c, true
	}
	neg := strings.TrimPrefix(strings.TrimPrefix(w, "no"), "-")
	if neg != w {
		if c, ok := codes[neg]; ok {
			if c == 1 {
				return 22, true // no-bold and no-dim are both 22
			}
			return 20 + c, true
		}
	}
	return 0, false
}
