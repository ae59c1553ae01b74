package vocab

import (
	"bytes"
	"path"
	"strings"
)

// extLanguages maps lowercased file extensions to language names. Languages
// without a grammar yet are listed so that callers and later grammars agree on
// their names.
var extLanguages = map[string]string{
	".go": "go",
	".py": "python", ".pyi": "python", ".pyw": "python",
	".js": "javascript", ".jsx": "javascript", ".mjs": "javascript", ".cjs": "javascript",
	".ts": "typescript", ".mts": "typescript", ".cts": "typescript",
	".tsx": "tsx",
	".md":  "markdown", ".markdown": "markdown", ".mdx": "markdown", ".mkd": "markdown",
	".java": "java", ".kt": "kotlin", ".kts": "kotlin", ".scala": "scala", ".sc": "scala",
	".groovy": "groovy", ".gradle": "groovy",
	".rs": "rust",
	".c":  "c", ".h": "c",
	".cc": "cpp", ".cpp": "cpp", ".cxx": "cpp", ".c++": "cpp", ".hpp": "cpp", ".hh": "cpp", ".hxx": "cpp", ".h++": "cpp", ".ipp": "cpp",
	".m": "objc", ".mm": "objc",
	".cs": "csharp", ".fs": "fsharp", ".fsx": "fsharp", ".vb": "vbnet",
	".rb": "ruby", ".rake": "ruby", ".gemspec": "ruby",
	".php": "php", ".swift": "swift", ".dart": "dart", ".lua": "lua",
	".pl": "perl", ".pm": "perl", ".r": "r",
	".sh": "shell", ".bash": "shell", ".zsh": "shell", ".ksh": "shell", ".fish": "fish",
	".ps1": "powershell", ".psm1": "powershell", ".bat": "batch", ".cmd": "batch",
	".ex": "elixir", ".exs": "elixir", ".erl": "erlang", ".hrl": "erlang",
	".hs": "haskell", ".ml": "ocaml", ".mli": "ocaml", ".elm": "elm",
	".clj": "clojure", ".cljs": "clojure", ".cljc": "clojure", ".edn": "clojure",
	".zig": "zig", ".nim": "nim", ".jl": "julia", ".v": "verilog", ".sv": "verilog", ".vhd": "vhdl",
	".sql": "sql", ".proto": "protobuf", ".graphql": "graphql", ".gql": "graphql",
	".html": "html", ".htm": "html", ".xhtml": "html", ".vue": "vue", ".svelte": "svelte",
	".css": "css", ".scss": "scss", ".sass": "scss", ".less": "less",
	".json": "json", ".jsonc": "json", ".json5": "json",
	".yaml": "yaml", ".yml": "yaml", ".toml": "toml", ".xml": "xml", ".xsd": "xml", ".svg": "xml", ".plist": "xml",
	".ini": "ini", ".cfg": "ini", ".conf": "ini", ".properties": "ini",
	".tf": "hcl", ".tfvars": "hcl", ".hcl": "hcl", ".nix": "nix",
	".bzl": "starlark", ".star": "starlark", ".bazel": "starlark",
	".cmake": "cmake", ".mk": "makefile", ".mak": "makefile",
	".dockerfile": "dockerfile", ".cue": "cue",
	".rst": "rst", ".adoc": "asciidoc", ".tex": "latex",
	".txt": "text",
}

// nameLanguages maps well-known base names (lowercased) to languages.
var nameLanguages = map[string]string{
	"makefile": "makefile", "gnumakefile": "makefile",
	"dockerfile": "dockerfile", "containerfile": "dockerfile",
	"cmakelists.txt": "cmake",
	"rakefile":       "ruby", "gemfile": "ruby", "podfile": "ruby", "vagrantfile": "ruby", "brewfile": "ruby",
	"build": "starlark", "workspace": "starlark",
	"jenkinsfile": "groovy",
	"go.mod":      "gomod", "go.work": "gomod",
	".bashrc": "shell", ".bash_profile": "shell", ".zshrc": "shell", ".profile": "shell",
}

// shebangLanguages maps interpreter names (version digits stripped) to languages.
var shebangLanguages = map[string]string{
	"python": "python", "pypy": "python",
	"node": "javascript", "nodejs": "javascript", "bun": "javascript",
	"deno": "typescript", "ts-node": "typescript", "tsx": "typescript",
	"sh": "shell", "bash": "shell", "zsh": "shell", "ksh": "shell", "dash": "shell", "ash": "shell",
	"fish": "fish", "ruby": "ruby", "perl": "perl", "php": "php", "lua": "lua",
	"rscript": "r", "pwsh": "powershell", "make": "makefile",
}

// DetectLanguage names the language of a file from its extension, a
// well-known base name (Makefile, Dockerfile...), or for files without an
// extension (or an unknown one) the shebang line. Unknown files are "text".
// A .h file is C unless it holds C++ (isCPPHeader).
func DetectLanguage(p string, content []byte) string {
	base := path.Base(strings.ReplaceAll(p, `\`, "/"))
	lower := strings.ToLower(base)
	if l, ok := nameLanguages[lower]; ok {
		return l
	}
	switch {
	case strings.HasPrefix(lower, "dockerfile.") || strings.HasPrefix(lower, "containerfile."):
		return "dockerfile"
	case strings.HasPrefix(lower, "makefile.") || strings.HasPrefix(lower, "build.bazel"):
		if strings.HasPrefix(lower, "build") {
			return "starlark"
		}
		return "makefile"
	}
	if l, ok := extLanguages[path.Ext(lower)]; ok {
		if l == "c" && path.Ext(lower) == ".h" && isCPPHeader(content) {
			return "cpp"
		}
		return l
	}
	if l := shebangLanguage(content); l != "" {
		return l
	}
	return "text"
}

func shebangLanguage(content []byte) string {
	interp := Interpreter(content)
	interp = strings.ToLower(strings.TrimRight(interp, "0123456789."))
	return shebangLanguages[interp]
}

// Interpreter returns the base name of the program a shebang line names
// ("python3" for "#!/usr/bin/env -S python3 -u"), "" when there is none.
func Interpreter(content []byte) string {
	if !bytes.HasPrefix(content, []byte("#!")) {
		return ""
	}
	line, _, _ := bytes.Cut(content[2:], []byte("\n"))
	fields := strings.Fields(string(line))
	if len(fields) == 0 {
		return ""
	}
	interp := path.Base(fields[0])
	if interp == "env" {
		interp = ""
		for _, f := range fields[1:] {
			if strings.HasPrefix(f, "-") || strings.Contains(f, "=") {
				continue
			}
			interp = path.Base(f)
			break
		}
	}
	return interp
}

// cppHeaderLimit bounds how much of a .h file isCPPHeader reads.
const cppHeaderLimit = 64 << 10

// isCPPHeader reports whether a .h file holds C++: a line that opens with
// a keyword C does not have (namespace, template, class or struct with a
// base list, using, an access label) or includes a standard C++ header
// (<string>, <vector>: no .h). Parsed as C, such a header is a syntax error
// from its first namespace on.
func isCPPHeader(content []byte) bool {
	src := content[:min(len(content), cppHeaderLimit)]
	for len(src) > 0 {
		line := src
		if i := bytes.IndexByte(src, '\n'); i >= 0 {
			line, src = src[:i], src[i+1:]
		} else {
			src = nil
		}
		line = bytes.TrimSpace(line)
		for _, p := range cppLineStarts {
			if bytes.HasPrefix(line, []byte(p)) {
				return true
			}
		}
		if bytes.HasPrefix(line, []byte("#include <")) {
			name := line[len("#include <"):]
			if i := bytes.IndexByte(name, '>'); i > 0 && bytes.IndexByte(name[:i], '.') < 0 {
				return true
			}
		}
		if (bytes.HasPrefix(line, []byte("class ")) || bytes.HasPrefix(line, []byte("struct "))) && bytes.Contains(line, []byte(" : public ")) {
			return true
		}
	}
	return false
}

// cppLineStarts open lines only C++ has.
var cppLineStarts = []string{"namespace ", "template <", "template<", "using namespace ", "public:", "private:", "protected:", "extern \"C++\""}
