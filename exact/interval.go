package exact

import (
	"strconv"
	"strings"
)

// braced reads the interval whose '{' is p[i], up to closing (`\}` in a
// BRE, "}" in an ERE), as RE2 writes it, and returns the offset of
// closing's last byte.
func braced(p string, i int, closing string) (string, int, error) {
	end := strings.Index(p[i:], closing)
	if end < 0 {
		return "", 0, errBraceOpen
	}
	iv, err := interval(p[i+1 : i+end])
	return iv, i + end + len(closing) - 1, err
}

// groupStart returns the offset of the '(' that opens the group whose
// ')' ends out, skipping escapes and classes.
func groupStart(out []byte) int {
	s := string(out)
	var stack []int
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '[':
			i = classEnd(s, i)
		case '(':
			stack = append(stack, i)
		case ')':
			if len(stack) > 0 {
				last := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				if i == len(s)-1 {
					return last
				}
			}
		}
	}
	return max(len(s)-1, 0)
}

// interval reads the inside of a POSIX interval, "m", "m,", "m,n" or
// ",n", and returns it as RE2 writes it.
func interval(s string) (string, error) {
	lo, hi, comma := strings.Cut(s, ",")
	num := func(x string) (int, error) {
		if x == "" {
			return -1, nil
		}
		n := 0
		for _, c := range []byte(x) {
			if c < '0' || c > '9' {
				return 0, errBraceOpen
			}
			if n = n*10 + int(c-'0'); n > maxPOSIXRepeat {
				return 0, errTooBig
			}
		}
		return n, nil
	}
	m, err := num(lo)
	if err != nil {
		return "", err
	}
	n, err := num(hi)
	if err != nil {
		return "", err
	}
	switch {
	case !comma && m < 0:
		return "", errBraceBad
	case !comma:
		return "{" + strconv.Itoa(m) + "}", nil
	}
	m = max(m, 0)
	if n < 0 {
		return "{" + strconv.Itoa(m) + ",}", nil
	}
	if m > n {
		return "", errBraceBad
	}
	return "{" + strconv.Itoa(m) + "," + strconv.Itoa(n) + "}", nil
}
