// Package simdlevel says which SIMD kernels a process may run: the highest
// level the CPU has (the caller asks the CPU; this package only reads the
// setting), capped by the BCINDEX_KERNEL environment variable.
//
// BCINDEX_KERNEL=generic runs the portable Go kernels only, avx2 allows AVX2
// but not AVX-512, avx512 (or unset) allows whatever the CPU has. A level
// the CPU lacks is never chosen: the setting only lowers. Tests and CI set it
// to run the lower kernels on a machine that has the higher ones; Go's own
// GODEBUG=cpu.avx512f=off does not reach simd/archsimd's AVX512 check (it
// is computed before GODEBUG is read), so the project's setting is the one
// to use.
package simdlevel

import (
	"fmt"
	"os"
	"strings"
)

// Level is an ordered kernel level.
type Level int

// The levels, lowest first.
const (
	Generic Level = iota
	AVX2
	AVX512
)

// Env is the environment variable that caps the level.
const Env = "BCINDEX_KERNEL"

var names = [...]string{Generic: "generic", AVX2: "avx2", AVX512: "avx512"}

// String returns the level's name as BCINDEX_KERNEL spells it.
func (l Level) String() string {
	if l < Generic || l > AVX512 {
		return fmt.Sprintf("level(%d)", int(l))
	}
	return names[l]
}

// Parse reads a BCINDEX_KERNEL value; "" and "auto" allow every level, "go"
// is another name for generic.
func Parse(s string) (Level, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "auto", "avx512":
		return AVX512, nil
	case "avx2":
		return AVX2, nil
	case "generic", "go", "portable":
		return Generic, nil
	}
	return AVX512, fmt.Errorf("%s=%q: want generic, avx2 or avx512", Env, s)
}

// Cap returns the highest level BCINDEX_KERNEL allows and, for a value it
// does not know, an error (the level is then uncapped).
func Cap() (Level, error) {
	return Parse(os.Getenv(Env))
}

// Choose returns the highest level at most both cpu (what the CPU has) and
// the environment's cap.
func Choose(cpu Level) Level {
	c, _ := Cap()
	return min(cpu, c)
}
