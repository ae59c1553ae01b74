package gittest

import "fmt"

// RetryGo is a documented Go function that search, MCP and web tests look
// for by name, by keyword and by meaning ("retry with backoff").
const RetryGo = `package net

import "time"

// RetryWithBackoff calls fn until it succeeds, sleeping twice as long after
// each failure.
func RetryWithBackoff(fn func() error, attempts int) error {
	delay := 10 * time.Millisecond
	var err error
	for i := 0; i < attempts; i++ {
		if err = fn(); err == nil {
			return nil
		}
		time.Sleep(delay)
		delay *= 2
	}
	return err
}
`

// ConfigPy is a Python class with a documented method and an unrelated
// function beside it.
const ConfigPy = `import json


class ConfigLoader:
    """Loads settings from disk."""

    def parse_config_file(self, path):
        """Parse the config file at path and return a dict."""
        with open(path) as f:
            return json.load(f)


def unrelated_helper(x):
    return x * 2
`

// CalcGo is a small Go file of two documented functions.
const CalcGo = `package calc

// Add returns the sum of a and b.
func Add(a, b int) int {
	return a + b
}

// Mul returns the product of a and b.
func Mul(a, b int) int {
	return a * b
}
`

// ManyFiles returns n small Go files in ten packages, each with one
// documented function.
func ManyFiles(n int) map[string]string {
	files := map[string]string{}
	for i := 0; i < n; i++ {
		files[fmt.Sprintf("pkg%d/f%d.go", i%10, i)] = fmt.Sprintf("package pkg%d\n\n// F%d does thing %d.\nfunc F%d() int { return %d }\n", i%10, i, i, i, i)
	}
	return files
}

// HeaderGo parses a length-prefixed header; similar's tests copy it and
// fix one copy.
const HeaderGo = `package wire

// ParseHeader reads the length-prefixed header at the start of buf.
func ParseHeader(buf []byte) ([]byte, error) {
	if len(buf) < 2 {
		return nil, errShort
	}
	n := int(buf[0])<<8 | int(buf[1])
	if len(buf) < n {
		return nil, errShort
	}
	return buf[2 : 2+n], nil
}
`
