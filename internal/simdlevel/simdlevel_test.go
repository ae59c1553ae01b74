package simdlevel

import "testing"

func TestParse(t *testing.T) {
	for in, want := range map[string]Level{"": AVX512, "auto": AVX512, "AVX512": AVX512, "avx2": AVX2, " generic ": Generic, "go": Generic} {
		got, err := Parse(in)
		if err != nil || got != want {
			t.Errorf("Parse(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	if _, err := Parse("sse9"); err == nil {
		t.Error("Parse(sse9): no error")
	}
}

func TestChooseOnlyLowers(t *testing.T) {
	t.Setenv(Env, "avx2")
	if got := Choose(AVX512); got != AVX2 {
		t.Errorf("cap avx2, CPU avx512: %v", got)
	}
	if got := Choose(Generic); got != Generic {
		t.Errorf("cap avx2, CPU generic: %v", got)
	}
	t.Setenv(Env, "")
	if got := Choose(AVX2); got != AVX2 {
		t.Errorf("no cap, CPU avx2: %v", got)
	}
	t.Setenv(Env, "generic")
	if got := Choose(AVX512); got != Generic {
		t.Errorf("cap generic, CPU avx512: %v", got)
	}
}
