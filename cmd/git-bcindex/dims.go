package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// dimFile keeps the vector lengths of remote models learned by probing,
// in <git dir>/bcindex/dimensions.json as {"provider endpoint model": N}.
// Like everything in that directory it can be lost: the model is then
// asked again.
type dimFile string

func (f dimFile) read() map[string]int {
	m := map[string]int{}
	if b, err := os.ReadFile(string(f)); err == nil {
		json.Unmarshal(b, &m) // a damaged file only means asking again
	}
	return m
}

func (f dimFile) Dim(key string) (int, bool) {
	d, ok := f.read()[key]
	return d, ok
}

func (f dimFile) SetDim(key string, dim int) error {
	m := f.read()
	m[key] = dim
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(string(f)), 0o755); err != nil {
		return fmt.Errorf("create %s: %w", filepath.Dir(string(f)), err)
	}
	tmp := string(f) + ".tmp"
	if err := os.WriteFile(tmp, append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("write %s: %w", tmp, err)
	}
	if err := os.Rename(tmp, string(f)); err != nil {
		return fmt.Errorf("write %s: %w", f, err)
	}
	return nil
}
