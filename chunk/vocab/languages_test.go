package vocab

import "testing"

func TestDetectLanguage(t *testing.T) {
	tests := []struct {
		path, content, want string
	}{
		{"main.go", "", "go"},
		{"a/b/script.PY", "", "python"},
		{"x.jsx", "", "javascript"},
		{"x.mjs", "", "javascript"},
		{"x.cjs", "", "javascript"},
		{"x.d.ts", "", "typescript"},
		{"x.tsx", "", "tsx"},
		{"README.md", "", "markdown"},
		{"Main.java", "", "java"},
		{"lib.rs", "", "rust"},
		{"x.h", "", "c"},
		{"x.h", "#include <stdio.h>\nstruct point { int x; };\n", "c"},
		{"x.h", "#ifdef __cplusplus\nextern \"C\" {\n#endif\nint f(void);\n", "c"},
		{"x.h", "#include <stdint.h>\n\nnamespace absl {\nint f();\n}\n", "cpp"},
		{"x.h", "#include <vector>\nint f();\n", "cpp"},
		{"x.h", "template <typename T>\nT id(T x) { return x; }\n", "cpp"},
		{"x.h", "class Widget : public Base {\n public:\n  void Draw();\n};\n", "cpp"},
		{"x.hpp", "", "cpp"},
		{"Makefile", "", "makefile"},
		{"sub/GNUmakefile", "", "makefile"},
		{"Dockerfile", "", "dockerfile"},
		{"Dockerfile.dev", "", "dockerfile"},
		{"CMakeLists.txt", "", "cmake"},
		{"Gemfile", "", "ruby"},
		{"BUILD.bazel", "", "starlark"},
		{`win\path\x.go`, "", "go"},
		{"bin/tool", "#!/usr/bin/env python3\nprint(1)\n", "python"},
		{"bin/tool", "#!/usr/bin/env -S node --no-warnings\n", "javascript"},
		{"bin/tool", "#!/bin/bash\n", "shell"},
		{"run.cgi", "#!/usr/bin/perl -w\n", "perl"},
		{"bin/tool", "#!\n", "text"},
		{"LICENSE", "MIT", "text"},
		{"notes.txt", "#!/bin/sh\n", "text"},
		{"", "", "text"},
		{".bashrc", "", "shell"},
		{".gitignore", "", "text"},
	}
	for _, tt := range tests {
		if got := DetectLanguage(tt.path, []byte(tt.content)); got != tt.want {
			t.Errorf("DetectLanguage(%q) = %q, want %q", tt.path, got, tt.want)
		}
	}
}

func TestInterpreter(t *testing.T) {
	for content, want := range map[string]string{
		"#!/bin/sh\necho hi\n":                   "sh",
		"#!/usr/bin/env python3\n":               "python3",
		"#!/usr/bin/env -S FOO=1 node --harmony": "node",
		"#! /usr/local/bin/ruby -w\n":            "ruby",
		"#!\n":                                   "",
		"echo no shebang\n":                      "",
		"":                                       "",
	} {
		if got := Interpreter([]byte(content)); got != want {
			t.Errorf("Interpreter(%q) = %q, want %q", content, got, want)
		}
	}
}
