package train

import "testing"

// TestDocConventions: each new language's doc-comment form yields its
// summary sentence, and the doc leaves the code.
func TestDocConventions(t *testing.T) {
	for _, tc := range []struct{ path, src, query, code string }{
		{"a.c", "/**\n * kmalloc - allocate kernel memory\n * @size: bytes\n */\nvoid *kmalloc(size_t size) { return 0; }\n",
			"allocate kernel memory", "void *kmalloc(size_t size) { return 0; }"},
		{"a.c", "/**\n * g_hash_table_new:\n * @hash_func: a function\n *\n * Creates a new table.\n */\nvoid *g_hash_table_new (int hash_func) { return 0; }\n",
			"Creates a new table", "void *g_hash_table_new (int hash_func) { return 0; }"},
		{"a.c", "/*\n * ExecInitNode\n *\n *\t\tRecursively initializes the plan tree.\n */\nvoid ExecInitNode(void) {}\n",
			"Recursively initializes the plan tree", "void ExecInitNode(void) {}"},
		{"a.c", "/*\n** Return the number of bytes.\n*/\nint sqlite3Strlen(const char *z){ return 0; }\n",
			"Return the number of bytes", "int sqlite3Strlen(const char *z){ return 0; }"},
		{"b.cpp", "/*!\n    \\fn int QString::size() const\n    Returns the number of characters.\n*/\nint QString::size() const { return d; }\n",
			"Returns the number of characters", "int QString::size() const { return d; }"},
		{"b.cpp", "/// Compute the \\p Value hash.\nunsigned hashIt(int Value) { return 0; }\n",
			"Compute the Value hash", "unsigned hashIt(int Value) { return 0; }"},
		{"b.cpp", "/**\n * @brief Gets a value.\n */\nint get(int x) { return x; }\n", "Gets a value", "int get(int x) { return x; }"},
		{"c.cs", "class A {\n    /// <summary>\n    /// Opens the <see cref=\"T:Stream\"/> for reading.\n    /// </summary>\n    public void Open(int x) { }\n}\n",
			"Opens the Stream for reading", "public void Open(int x) { }"},
		{"g.lua", "--- Split a string.\n-- @param s the string\nfunction M.split(s, re)\n  return s\nend\n",
			"Split a string", "function M.split(s, re)\n  return s\nend"},
		{"h.ex", "defmodule Foo do\n  @doc \"\"\"\n  Returns the length.\n  \"\"\"\n  @spec len(list) :: integer\n  def len(list), do: length(list)\nend\n",
			"Returns the length", "@spec len(list) :: integer\n  def len(list), do: length(list)"},
		{"i.sh", "# func_dirname file append\n# Compute the dirname of FILE.\nfunc_dirname ()\n{\n  echo hi\n}\n",
			"Compute the dirname of FILE", "func_dirname ()\n{\n  echo hi\n}"},
	} {
		u := MineFile(tc.path, []byte(tc.src))
		if len(u.Queries) != 1 {
			t.Errorf("%s %q: %d queries, want 1", tc.path, tc.query, len(u.Queries))
			continue
		}
		for j, q := range u.Queries {
			if q != tc.query || u.Texts[j] != tc.code {
				t.Errorf("%s: got %q → %q, want %q → %q", tc.path, q, u.Texts[j], tc.query, tc.code)
			}
		}
	}
	for _, doc := range []string{"!\n\\internal", "{@inheritDoc}", "\\overload\nMore."} {
		if got := cleanDoc(doc, "f", "cpp"); got != "" {
			t.Errorf("cleanDoc(%q) = %q, want none", doc, got)
		}
	}
	// Go's "Name does X" keeps its name.
	if got := cleanDoc("Split slices s.", "Split", "go"); got != "Split slices s." {
		t.Errorf("cleanDoc changed a Go doc: %q", got)
	}
}
